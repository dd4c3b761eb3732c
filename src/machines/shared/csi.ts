/**
 * CSI RPCs and gRPC status codes. upstream: container-storage-interface/spec spec.md (v1.9.0),
 * grpc codes (google.golang.org/grpc/codes).
 */
export const GRPC_CODES = {
  OK: 0, CANCELLED: 1, UNKNOWN: 2, INVALID_ARGUMENT: 3, DEADLINE_EXCEEDED: 4, NOT_FOUND: 5,
  ALREADY_EXISTS: 6, PERMISSION_DENIED: 7, RESOURCE_EXHAUSTED: 8, FAILED_PRECONDITION: 9,
  ABORTED: 10, OUT_OF_RANGE: 11, UNIMPLEMENTED: 12, INTERNAL: 13, UNAVAILABLE: 14, DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;
export type GrpcCode = keyof typeof GRPC_CODES;

/** The Go name printed in "rpc error: code = DeadlineExceeded desc = …". */
export const GRPC_CODE_GO_NAME: Record<GrpcCode, string> = {
  OK: 'OK', CANCELLED: 'Canceled', UNKNOWN: 'Unknown', INVALID_ARGUMENT: 'InvalidArgument',
  DEADLINE_EXCEEDED: 'DeadlineExceeded', NOT_FOUND: 'NotFound', ALREADY_EXISTS: 'AlreadyExists',
  PERMISSION_DENIED: 'PermissionDenied', RESOURCE_EXHAUSTED: 'ResourceExhausted',
  FAILED_PRECONDITION: 'FailedPrecondition', ABORTED: 'Aborted', OUT_OF_RANGE: 'OutOfRange',
  UNIMPLEMENTED: 'Unimplemented', INTERNAL: 'Internal', UNAVAILABLE: 'Unavailable',
  DATA_LOSS: 'DataLoss', UNAUTHENTICATED: 'Unauthenticated',
};

export const isGrpcCode = (s: string): s is GrpcCode => s in GRPC_CODES;

/** "rpc error: code = Aborted desc = …", as grpc status.Error(...).Error() prints. */
export const rpcErrorText = (code: GrpcCode, desc: string): string =>
  `rpc error: code = ${GRPC_CODE_GO_NAME[code]} desc = ${desc}`;

/**
 * Codes after which the operation may still be running in the storage backend: the caller keeps the
 * state uncertain and retries. upstream: external-attacher pkg/attacher/attacher.go isFinalError;
 * kubelet pkg/volume/csi/csi_client.go isFinalError; external-provisioner controller.go; external-snapshotter
 * pkg/sidecar-controller/snapshot_controller.go isCSIFinalError (v4.0.0, v8.0.1).
 */
export function isFinalError(code: GrpcCode): boolean {
  return !(code === 'CANCELLED' || code === 'DEADLINE_EXCEEDED' || code === 'UNAVAILABLE'
    || code === 'RESOURCE_EXHAUSTED' || code === 'ABORTED');
}

/** What protosanitizer prints for a field marked csi_secret. */
export const STRIPPED_SECRET = '***stripped***';

/** Fields marked csi_secret in csi.proto (`secrets`, and `…_secrets` of the older messages): protosanitizer replaces their value. */
export const isSecretField = (k: string): boolean => k === 'secrets' || k.endsWith('_secrets');

/**
 * A request as csi-lib-utils' protosanitizer.StripSecrets leaves it for the log: each secret field's value replaced
 * (the request the driver gets keeps them). upstream: kubernetes-csi/csi-lib-utils protosanitizer/protosanitizer.go.
 */
export function stripSecrets<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(stripSecrets) as T;
  let out: Record<string, unknown> | undefined;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const y = isSecretField(k) && x !== undefined ? STRIPPED_SECRET : stripSecrets(x);
    if (y !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = y;
  }
  return (out ?? v) as T;
}

/** The prefix of the StorageClass and VolumeSnapshotClass parameters meant for the sidecars, not the driver. */
export const CSI_PARAMETER_PREFIX = 'csi.storage.k8s.io/';

/**
 * A class's parameters without the csi.storage.k8s.io/ keys (secret references, fstype, the extra-create-metadata names):
 * what a driver is given, or keeps. upstream: external-provisioner removePrefixedParameters, external-snapshotter
 * utils.RemovePrefixedParameters (v8.0.1 pkg/utils/util.go :542-564), ceph-csi k8s.RemoveCSIPrefixedParameters.
 */
export function removePrefixedParameters(params: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(params ?? {}).filter(([k]) => !k.startsWith(CSI_PARAMETER_PREFIX)));
}

export const CSI_RPCS = {
  // Identity
  GetPluginInfo: 'Identity', GetPluginCapabilities: 'Identity', Probe: 'Identity',
  // Controller
  CreateVolume: 'Controller', DeleteVolume: 'Controller', ControllerPublishVolume: 'Controller',
  ControllerUnpublishVolume: 'Controller', ValidateVolumeCapabilities: 'Controller', ListVolumes: 'Controller',
  GetCapacity: 'Controller', ControllerGetCapabilities: 'Controller', CreateSnapshot: 'Controller',
  DeleteSnapshot: 'Controller', ListSnapshots: 'Controller', ControllerExpandVolume: 'Controller',
  ControllerGetVolume: 'Controller',
  // Node
  NodeStageVolume: 'Node', NodeUnstageVolume: 'Node', NodePublishVolume: 'Node', NodeUnpublishVolume: 'Node',
  NodeGetVolumeStats: 'Node', NodeExpandVolume: 'Node', NodeGetCapabilities: 'Node', NodeGetInfo: 'Node',
} as const;
/**
 * The kubelet plugin registration API served by node-driver-registrar on its registration socket.
 * upstream: k8s.io/kubelet/pkg/apis/pluginregistration/v1/api.proto
 */
export const REGISTRATION_RPCS = { GetInfo: 'Registration', NotifyRegistrationStatus: 'Registration' } as const;

export type CsiRpc = keyof typeof CSI_RPCS | keyof typeof REGISTRATION_RPCS;
export const isCsiRpc = (s: string): s is CsiRpc => s in CSI_RPCS || s in REGISTRATION_RPCS;

/** gRPC full method name: "/csi.v1.Controller/ControllerPublishVolume", "/pluginregistration.Registration/GetInfo". */
export const csiMethod = (rpc: CsiRpc): string =>
  rpc in REGISTRATION_RPCS ? `/pluginregistration.Registration/${rpc}` : `/csi.v1.${CSI_RPCS[rpc as keyof typeof CSI_RPCS]}/${rpc}`;

/**
 * Whether a NodeGetCapabilities answer lists the RPC capability `type` (csi.proto NodeServiceCapability.RPC.Type), in the
 * shapes the plugins' answers take here: `Type.Rpc.type`, `rpc.type` or `type`, numbered or named.
 */
export function hasNodeRpcCapability(resp: Record<string, unknown> | undefined, type: number, name: string): boolean {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const caps = (resp?.capabilities ?? []) as Array<Record<string, any>>;
  return caps.some((c) => {
    const t = c?.Type?.Rpc?.type ?? c?.rpc?.type ?? c?.type;
    return t === type || t === name;
  });
}

/** csi.proto VolumeCapability.AccessMode.Mode numbers. */
export const CSI_ACCESS_MODE = {
  SINGLE_NODE_WRITER: 1, SINGLE_NODE_READER_ONLY: 2, MULTI_NODE_READER_ONLY: 3,
  MULTI_NODE_SINGLE_WRITER: 4, MULTI_NODE_MULTI_WRITER: 5, SINGLE_NODE_SINGLE_WRITER: 6,
  SINGLE_NODE_MULTI_WRITER: 7,
} as const;

/**
 * The stage of a volume's life a CSI call belongs to. Generic lines (the gRPC interceptors' "GRPC
 * call/request/response") take their stage from the method they log, not from the program printing them.
 */
const RPC_STAGE: Record<string, import('./messages.ts').Stage> = {
  CreateVolume: 'provision', DeleteVolume: 'delete',
  ControllerPublishVolume: 'attach', ControllerUnpublishVolume: 'detach',
  NodeStageVolume: 'mount', NodePublishVolume: 'mount',
  NodeUnpublishVolume: 'unmount', NodeUnstageVolume: 'unmount',
  ControllerExpandVolume: 'resize', NodeExpandVolume: 'resize',
  CreateSnapshot: 'snapshot', DeleteSnapshot: 'snapshot', ListSnapshots: 'snapshot',
  NodeGetInfo: 'register', GetInfo: 'register', NotifyRegistrationStatus: 'register',
  // CSI v0's NodeGetId, which node-driver-registrar v0 called for the node ID (NodeGetInfo since CSI v1)
  NodeGetId: 'register',
};

/**
 * The stage a CSI call's step shows: its RPC's own (ControllerPublishVolume is an attach whoever calls it), else the
 * stage of the work its caller does (a capability question inside a mount), else `other`: an identity or capability
 * handshake of a sidecar's start-up (GetPluginInfo, Probe, ControllerGetCapabilities), as the corpus labels them.
 */
export const stageOfCsiCall = (rpc: string, callerStage?: import('./messages.ts').Stage): import('./messages.ts').Stage =>
  RPC_STAGE[rpc] ?? callerStage ?? 'other';

export function stageOfMethod(method: string): import('./messages.ts').Stage | undefined {
  const rpc = method.slice(method.lastIndexOf('/') + 1);
  return RPC_STAGE[rpc];
}
