/**
 * The flow models of the /zh/ pages: every step's summary comes from the zh catalogs (rendered from
 * the English step's own arguments) or from the cluster's sentences said in Chinese; only a
 * scenario's own English action text may stay English, marked summaryLang "en".
 */
import { describe, expect, it } from 'vitest';
import { buildFlowModel, runScenario, SCENARIOS } from '../../src/machines/index.ts';
import { causeTextZh, flowModelZh, readSummary, summaryZh } from '../../src/machines/view/flow.zh.ts';

const CJK = /[\u4e00-\u9fff]/;

describe('flow models in Chinese (flow.zh.ts)', () => {
  it('reads a summary back into its template and arguments only when the template renders the same text', () => {
    const r = readSummary('The PV controller sets PersistentVolume pvc-1 to phase Bound.');
    expect(r).toEqual({ id: 'pvController.volumePhase', args: { volume: 'pvc-1', phase: 'Bound' } });
    expect(readSummary('Something no template says.')).toBeUndefined();
  });

  it('says the cluster\'s own sentences in Chinese, keeping names and codes as printed', () => {
    expect(summaryZh({ summary: 'kubelet calls NodeStageVolume on the CSI node plugin.' })).toBe('kubelet 调用 CSI 节点插件的 NodeStageVolume。');
    expect(summaryZh({ summary: 'The CSI plugin answers NodeStageVolume: DEADLINE_EXCEEDED (context deadline exceeded).' })).toBe('CSI 插件回应 NodeStageVolume：DEADLINE_EXCEEDED（context deadline exceeded）。');
    expect(summaryZh({ summary: 'kube-scheduler updates the status of Pod default/web-0.' })).toBe('kube-scheduler 更新 Pod default/web-0 的状态。');
    // the reader's own actions: "You" is the reader, not a component named You
    expect(summaryZh({ summary: 'You create Pod default/web-0.' })).toBe('你创建 Pod default/web-0。');
    expect(summaryZh({ summary: 'You delete PersistentVolumeClaim default/data.' })).toBe('你删除 PersistentVolumeClaim default/data。');
    expect(causeTextZh({ kind: 'deadline', rpc: 'NodeStageVolume' })).toBe('它的 NodeStageVolume 调用在超时前没有得到回应');
    // a process that exits by itself, and the kubelet's restart backoff
    expect(summaryZh({ summary: 'node-driver-registrar on node-1 exits with status 1; the kubelet starts its container again at once (its first restart).' }))
      .toBe('node-1 上的 node-driver-registrar 以状态 1 退出；kubelet 立即再次启动它的容器（第一次重启）。');
    expect(summaryZh({ summary: 'node-driver-registrar on node-1 exits with status 1; the kubelet starts its container again once the CrashLoopBackOff of 20s has passed.' }))
      .toBe('node-1 上的 node-driver-registrar 以状态 1 退出；kubelet 在 20 秒的 CrashLoopBackOff 退避之后再次启动它的容器。');
  });

  for (const s of SCENARIOS) {
    it(`${s.id}: every step but the scenario's own action texts is in Chinese, and every cause`, () => {
      const trace = runScenario(s.id, { k8s: '1.30', ...(s.id === 'statefulset-rollout' ? { replicas: 3 } : {}) });
      const zh = flowModelZh(buildFlowModel(trace), trace);
      const left = zh.steps.filter((st) => st.summaryLang === 'en');
      for (const st of left) expect(st.kind, `untranslated: ${st.summary}`).toBe('user');
      for (const st of zh.steps) {
        if (!st.summaryLang) expect(st.summary, `step ${st.i}`).toMatch(CJK);
        if (st.cause) expect(st.why, `step ${st.i}`).toMatch(CJK);
      }
    });
  }
});
