/**
 * csi-lib-utils' ProbeForever (rpc/common.go), which every sidecar calls at start-up until its driver is ready: the
 * lines it prints when a Probe timed out or the driver said it is not ready, and tries again a second later. 1.20's
 * sidecars vendor csi-lib-utils v0.9.0 (klog.Warning, :124 and :129), 1.30's v0.18.1 (logger.Info, :156 and :161).
 * One definition for every sidecar that models it, named in its summary.
 */
import type { MessageDef, MessageTextZh } from './messages.ts';

type Def = Omit<MessageDef, 'source'>;

export const probeForeverMessages = (sidecar: string): { probeTimedOut: Def; driverNotReady: Def } => ({
  probeTimedOut: {
    stage: 'other', severity: 'W', summary: `The CSI driver did not answer Probe in time; ${sidecar} tries again in a second.`,
    cause: 'The driver container is still starting, or it is stuck.', next: 'Check that the CSI driver container is running and listening on its socket.',
    formats: {
      '1.20': { file: 'common.go', line: 124, text: 'CSI driver probe timed out' },
      '1.30': { file: 'common.go', line: 156, msg: 'CSI driver probe timed out', severity: 'I' },
    },
  },
  driverNotReady: {
    stage: 'other', severity: 'W', summary: `The CSI driver says it is not ready yet; ${sidecar} probes again in a second.`,
    cause: 'The driver answered Probe with ready=false.', next: 'Look at the CSI driver log for what it is waiting for.',
    formats: {
      '1.20': { file: 'common.go', line: 129, text: 'CSI driver is not ready' },
      '1.30': { file: 'common.go', line: 161, msg: 'CSI driver is not ready', severity: 'I' },
    },
  },
});

export const probeForeverMessagesZh = (sidecar: string): { probeTimedOut: MessageTextZh; driverNotReady: MessageTextZh } => ({
  probeTimedOut: {
    summary: `CSI 驱动未及时应答 Probe；${sidecar} 一秒后重试。`,
    cause: '驱动容器仍在启动，或已卡住。',
    next: '确认 CSI 驱动容器正在运行，并在其套接字上监听。',
  },
  driverNotReady: {
    summary: `CSI 驱动表示尚未就绪；${sidecar} 一秒后再次探测。`,
    cause: '驱动对 Probe 的应答为 ready=false。',
    next: '查看 CSI 驱动的日志，了解它在等待什么。',
  },
});
