/**
 * The playground's examples: scenario files as a reader writes them (Kubernetes YAML plus a
 * csi-flows/v1 Scenario document), each with a comment saying what it shows. The same files run on
 * the command line (`npx csi-flows trace --file <file>`) and in test/playground/examples.test.ts.
 */
import podWithClaim from './examples/pod-with-claim.yaml?raw';
import noAttach from './examples/no-attach.yaml?raw';
import rwxTwoNodes from './examples/rwx-two-nodes.yaml?raw';
import statefulsetMove from './examples/statefulset-move.yaml?raw';
import nodeShutdown from './examples/node-shutdown.yaml?raw';
import stageFault from './examples/stage-fault.yaml?raw';
import lateNodePlugin from './examples/late-node-plugin.yaml?raw';

export interface Example {
  /** ?example=<id>, and the file's name without .yaml */
  id: string;
  /** the menu's label */
  label: string;
  yaml: string;
  /** the Chinese page's label, and what the example shows (the file's leading comment, in Chinese) */
  zh: { label: string; note: string };
}

export const EXAMPLES: readonly Example[] = [
  {
    id: 'pod-with-claim', label: 'A pod with a claim (attach + mount)', yaml: podWithClaim,
    zh: { label: '一个使用 PVC 的 Pod（挂接 + 挂载）', note: '一个 Pod 使用一个 PVC：卷被制备出来，挂接到 Pod 所在的节点（VolumeAttachment、ControllerPublishVolume），然后挂载（NodeStageVolume、NodePublishVolume）。' },
  },
  {
    id: 'no-attach', label: 'A driver without attach', yaml: noAttach,
    zh: { label: '不需要挂接的驱动', note: '一个不需要挂接的驱动（类似 NFS 或节点本地存储）：它的 CSIDriver 声明 attachRequired: false，所以没有 VolumeAttachment，也没有 ControllerPublishVolume；kubelet 直接挂载。' },
  },
  {
    id: 'rwx-two-nodes', label: 'A ReadWriteMany volume on two nodes', yaml: rwxTwoNodes,
    zh: { label: '两个节点同时使用一个 ReadWriteMany 卷', note: '两个节点上的两个 Pod 同时使用一个 ReadWriteMany 卷：同一个卷挂接到两个节点，并在每个节点上挂载；不会出现 Multi-Attach 错误。' },
  },
  {
    id: 'statefulset-move', label: 'A StatefulSet of 3 pods moving node', yaml: statefulsetMove,
    zh: { label: '3 个 Pod 的 StatefulSet 迁移到另一个节点', note: '3 个 Pod 的 StatefulSet 从 node-1 迁移到 node-2：node-1 被封锁（cordon），它上面的 Pod 被删除；每个卷先在 node-1 上卸载并解除挂接，再挂接到 node-2 并挂载。' },
  },
  {
    id: 'node-shutdown', label: 'A node shuts down', yaml: nodeShutdown,
    zh: { label: '一个节点关机', note: '运行中的 Pod 所在的节点关机。节点变为 NotReady；运维人员在 1 分钟时强制删除 Pod；它在 node-2 上的替代 Pod 一直等待（Multi-Attach 错误），直到 6 分钟后的强制解除挂接。' },
  },
  {
    id: 'stage-fault', label: 'A fault: NodeStageVolume fails once', yaml: stageFault,
    zh: { label: '故障：NodeStageVolume 失败一次', note: '一个故障：驱动对第一次 NodeStageVolume 返回 INTERNAL。kubelet 报告 FailedMount，退避后重试；第二次调用成功，Pod 运行起来。' },
  },
  {
    id: 'late-node-plugin', label: 'A node plugin that starts late', yaml: lateNodePlugin,
    zh: { label: '节点插件启动得晚', note: '一个 Pod 所在的节点还没有节点插件：node-1 上驱动的节点 Pod 在故事开始 20 秒后才启动（spec.startLate）。在它注册之前，每次挂载都失败并提示 “driver name … not found in the list of registered CSI drivers”，然后退避；注册之后的重试挂载成功。' },
  },
];

/** The example the page opens with. */
export const STARTING_EXAMPLE: Example = EXAMPLES[0]!;

export const exampleById = (id: string): Example | undefined => EXAMPLES.find((e) => e.id === id);

/** What an example shows: its leading comment lines, without the "#". */
export function exampleNote(yaml: string): string {
  const lines: string[] = [];
  for (const line of yaml.split('\n')) {
    if (!line.startsWith('#')) break;
    lines.push(line.replace(/^#\s?/, ''));
  }
  return lines.join(' ');
}
