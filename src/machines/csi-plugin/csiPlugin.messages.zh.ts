/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

const errCause = '驱动或其存储后端拒绝了该操作，或执行失败；gRPC 状态码指明是哪种情况（ABORTED：该卷上已有另一个操作在进行；FAILED_PRECONDITION：调用不符合生命周期顺序；NOT_FOUND：卷不存在）。';
const errNext = '阅读 desc 文本；检查存储后端（云控制台、ceph status），并确认调用方是否会重试（非终态错误码：DEADLINE_EXCEEDED、ABORTED、UNAVAILABLE、RESOURCE_EXHAUSTED、CANCELLED）。';

/** csi-driver-nfs's lines both plugins print (csiPlugin.messages.ts nfsGrpcLines, nfsNodeServerLines); the -v=8 ones say what the -v=2 ones say. */
function nfsShared(p: 'csiControllerPlugin' | 'csiNodePlugin', call: string) {
  const grpc = {
    [`${p}.nfsGrpcCall`]: { summary: call },
    [`${p}.nfsGrpcRequest`]: { summary: 'csi-driver-nfs 在日志中记录该请求（secrets 已隐去）：{request}' },
    [`${p}.nfsGrpcResponse`]: { summary: 'csi-driver-nfs 返回应答：{response}' },
  };
  return {
    ...grpc,
    ...Object.fromEntries(Object.entries(grpc).map(([id, text]) => [`${id}Quiet`, text])),
    [`${p}.nfsGrpcError`]: { summary: 'csi-driver-nfs 使该调用失败：{error}', cause: errCause, next: errNext },
    [`${p}.nfsSkipChmod`]: { summary: '未设置 --mount-permissions：挂载的目录保留 NFS 服务器给出的权限。' },
    [`${p}.nfsForceUnmount`]: { summary: '卸载可以强制进行（mount-utils 的 CleanupMountWithForce），这样失联的 NFS 服务器不会让它卡住。' },
  };
}

export const messagesZh = defineMessagesZh({
  'csiControllerPlugin.grpcCall': { summary: 'CSI 控制器插件收到调用 {method}。' },
  'csiControllerPlugin.grpcRequest': { summary: '驱动在日志中记录该请求（secrets 已隐去）：{request}' },
  'csiControllerPlugin.grpcResponse': { summary: '驱动返回应答：{response}' },
  'csiControllerPlugin.grpcError': { summary: '驱动使该调用失败：{error}', cause: errCause, next: errNext },
  'csiControllerPlugin.cephGrpcCall': { summary: 'ceph-csi 的控制器插件收到调用 {method}（请求 {id}）。' },
  'csiControllerPlugin.cephGrpcRequest': { summary: 'ceph-csi 在日志中记录该请求（secrets 已隐去）：{request}' },
  'csiControllerPlugin.cephGrpcResponse': { summary: 'ceph-csi 返回应答：{response}' },
  'csiControllerPlugin.cephGrpcError': { summary: 'ceph-csi 使该调用失败：{error}', cause: errCause, next: errNext },
  ...nfsShared('csiControllerPlugin', 'csi-driver-nfs 的控制器插件收到调用 {method}。'),
  'csiControllerPlugin.nfsPublishing': { summary: 'csi-driver-nfs 把 NFS 导出目录 {source} 挂载到 /tmp/{subdir}。' },
  'csiControllerPlugin.nfsMounted': { summary: 'NFS 导出目录 {source} 已挂载到 /tmp/{subdir}。' },
  'csiControllerPlugin.nfsUnpublishing': { summary: 'csi-driver-nfs 卸载 /tmp/{subdir}。' },
  'csiControllerPlugin.nfsUnpublished': { summary: '/tmp/{subdir} 已卸载。' },
  'csiControllerPlugin.nfsInternalMount': { summary: '为了创建或删除卷的子目录，csi-driver-nfs 把整个导出目录 {server}:{share} 挂载到它的工作目录下。' },
  'csiControllerPlugin.nfsInternalUnmount': { summary: '导出目录用完了：csi-driver-nfs 把它从 {targetPath} 卸载。' },
  'csiControllerPlugin.nfsRemovingSubdirectory': { summary: 'csi-driver-nfs 删除卷的子目录 {path} 及其中的全部内容。' },
  'csiControllerPlugin.nfsRemovingEmptyDirectories': { summary: 'csi-driver-nfs 删除子目录之上留下的空目录，直到 {path}。' },
  'csiControllerPlugin.cephGotOmapValues': {
    summary: 'ceph-csi 读取存储池 {pool} 中的 omap 对象 {name}：{values}',
  },
  'csiControllerPlugin.cephSetOmapKeys': {
    summary: 'ceph-csi 向 omap 对象 {name} 写入键：{values}',
  },
  'csiControllerPlugin.cephRemovedOmapKeys': {
    summary: 'ceph-csi 从 omap 对象 {name} 中删除键 {keys}。',
  },
  'csiControllerPlugin.cephFoundExistingVolume': {
    summary: 'journal 中已有请求 {requestName} 对应的卷 {volumeId}：本次 CreateVolume 是重复调用，直接以该卷应答。',
  },
  'csiControllerPlugin.cephGeneratedVolumeId': {
    summary: 'ceph-csi 为 {requestName} 预留卷 ID {volumeId} 和镜像名 {imageName}。',
  },
  'csiControllerPlugin.cephGeneratedSnapshotId': {
    summary: 'ceph-csi 为 {requestName} 预留快照 ID {volumeId} 和镜像名 {imageName}。',
  },
  'csiControllerPlugin.cephRbdCreate': {
    summary: 'ceph-csi 创建大小为 {size} 的 RBD 镜像 {pool}/{imageName}。',
  },
  'csiControllerPlugin.cephCreatedVolume': {
    summary: '卷 {requestName} 已创建，其后端为 RBD 镜像 {imageName}。',
  },
  'csiControllerPlugin.cephOmapNotFound': {
    summary: 'ceph-csi 还找不到 omap 对象 {name}（存储池里的第一个快照）：这表示“尚无预留”，不是失败。',
    explain: '对不存在的对象调用 GetOmapValues 会返回 rados ENOENT；日志记录（journal）把它按错误级别打印，调用方则把它当作空的预留。下一行就会预留名字并创建该对象。',
  },
  'csiControllerPlugin.cephCloneDepth': {
    summary: '镜像 {pool}/{imageName} 的克隆深度为 {depth}：低于软上限 {soft}，无需扁平化（flatten）。',
    explain: '克隆链达到 --rbdsoftmaxclonedepth（4）时，ceph-csi 在后台（ceph manager 任务）扁平化该镜像；达到 --rbdhardmaxclonedepth（8）时，调用以 “flatten in progress” 失败，直到任务完成；从快照恢复时，检查的是快照的源镜像，上限为 3 和 7。',
  },
  'csiControllerPlugin.cephVolumeFromSnapshot': {
    summary: '新镜像 {pool}/{imageName} 是快照自身镜像 {pool}/{snapImage}@{snapImage} 的克隆。',
  },
  'csiControllerPlugin.cephSnapCreate': {
    summary: 'ceph-csi 为镜像 {imageName} 创建快照 {snapName}。',
  },
  'csiControllerPlugin.cephClone': {
    summary: 'ceph-csi 从快照 {parentName}@{snapName} 克隆出镜像 {cloneName}。',
  },
  'csiControllerPlugin.cephSnapRm': {
    summary: 'ceph-csi 删除快照 {imageName}@{snapName}。',
  },
  'csiControllerPlugin.cephDeletingImage': {
    summary: 'ceph-csi 删除 RBD 镜像 {imageName}。',
  },
  'csiControllerPlugin.cephRbdDelete': {
    summary: 'ceph-csi 删除镜像 {imageName}：把它移入 RBD 回收站（trash）；对于从未创建过的“-temp”克隆，则发现没有这个镜像。',
  },
  'csiControllerPlugin.cephTrashRemoveTaskAdded': {
    summary: 'ceph manager 接受了该任务：它在后台从回收站中彻底清除镜像 {imageName}。',
  },
  'csiControllerPlugin.cephTrashRemoveTask': {
    summary: 'ceph-csi 请求 ceph manager 从回收站中彻底清除镜像 {imageName}（id {imageId}）。',
  },

  ...nfsShared('csiNodePlugin', 'csi-driver-nfs 的节点插件收到调用 {method}。'),
  'csiNodePlugin.nfsPublishing': { summary: 'csi-driver-nfs 把 NFS 导出目录 {source} 挂载到 {targetPath}。' },
  'csiNodePlugin.nfsMounted': { summary: 'NFS 导出目录 {source} 已挂载到 {targetPath}。' },
  'csiNodePlugin.nfsUnpublishing': { summary: 'csi-driver-nfs 卸载 {targetPath}。' },
  'csiNodePlugin.nfsUnpublished': { summary: '{targetPath} 已卸载。' },
  'csiNodePlugin.grpcCall': { summary: 'CSI 节点插件收到调用 {method}。' },
  'csiNodePlugin.grpcRequest': { summary: '驱动在日志中记录该请求（secrets 已隐去）：{request}' },
  'csiNodePlugin.grpcResponse': { summary: '驱动返回应答：{response}' },
  'csiNodePlugin.grpcError': { summary: '驱动使该调用失败：{error}', cause: errCause, next: errNext },
  'csiNodePlugin.cephGrpcCall': { summary: 'ceph-csi 的节点插件收到调用 {method}（请求 {id}）。' },
  'csiNodePlugin.cephGrpcRequest': { summary: 'ceph-csi 在日志中记录该请求（secrets 已隐去）：{request}' },
  'csiNodePlugin.cephGrpcResponse': { summary: 'ceph-csi 返回应答：{response}' },
  'csiNodePlugin.cephGrpcError': { summary: 'ceph-csi 使该调用失败：{error}', cause: errCause, next: errNext },
  'csiNodePlugin.cephMapped': { summary: 'RBD 镜像 {imageName} 已映射到 {devicePath}。' },
  'csiNodePlugin.cephMounted': { summary: '已暂存的卷被绑定挂载（bind mount）到 Pod 的目标路径 {targetPath}。' },
  'csiNodePlugin.cephUnbound': { summary: '卷已从 Pod 的目标路径 {targetPath} 卸载。' },
  'csiNodePlugin.cephUnmountedStaging': { summary: '卷已从其暂存路径 {stagingPath} 卸载。' },
  'csiNodePlugin.cephUnmapped': { summary: '卷 {volumeId} 的 RBD 设备已从节点上取消映射（unmap）。' },
});

export const summariesZh = defineSummaries({});
