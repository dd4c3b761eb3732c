/**
 * Upstream timing constants, in virtual microseconds (the simulation's unit of time).
 * Each carries the upstream file it comes from.
 */
export const US = 1;
export const MS = 1_000;
export const SECOND = 1_000_000;
export const MINUTE = 60 * SECOND;

// --- nestedpendingoperations / exponential backoff (kubelet and A/D controller operations)
// upstream: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go:31,37
export const INITIAL_DURATION_BEFORE_RETRY = 500 * MS;
export const MAX_DURATION_BEFORE_RETRY = 2 * MINUTE + 2 * SECOND;

// --- attach/detach controller. upstream: pkg/controller/volume/attachdetach/attach_detach_controller.go DefaultTimerConfig
export const ADC_RECONCILER_LOOP_PERIOD = 100 * MS;
/** "Once this time has expired, the controller will assume the node or kubelet are unresponsive and will detach the volume anyway" */
export const ADC_MAX_WAIT_FOR_UNMOUNT_DURATION = 6 * MINUTE;
export const ADC_DSW_POPULATOR_LOOP_PERIOD = 1 * MINUTE;
/** the populator re-lists every pod (findAndAddActivePods) at most this often */
export const ADC_DSW_POPULATOR_LIST_PODS_RETRY = 3 * MINUTE;
/** --attach-detach-reconcile-sync-period (default 1m): how often the reconciler's syncStates checks that attached volumes still are */
export const ADC_RECONCILER_SYNC_DURATION = 1 * MINUTE;

// --- CSI attacher inside the A/D controller. upstream: pkg/volume/csi/csi_attacher.go, csi_plugin.go
export const CSI_TIMEOUT = 2 * MINUTE;
/** SetVolumeOwnership warns that it is slow once its walk over a volume's files has taken this long: time.AfterFunc(30*time.Second, …), pkg/volume/volume_linux.go (v1.20.5 :50, v1.30.1 :48) */
export const SET_VOLUME_OWNERSHIP_WARNING = 30 * SECOND;
export const VA_WAIT_BACKOFF_INITIAL = 500 * MS;
export const VA_WAIT_BACKOFF_FACTOR = 1.05;
export const VA_WAIT_BACKOFF_MAX = 7 * SECOND;

// --- kubelet volume manager. upstream: pkg/kubelet/volumemanager/volume_manager.go
export const KUBELET_RECONCILER_LOOP_PERIOD = 100 * MS;
export const KUBELET_DSW_POPULATOR_LOOP_PERIOD = 100 * MS;
/** "Value is slightly offset from 2 minutes to make timeouts due to this constant recognizable." */
export const POD_ATTACH_AND_MOUNT_TIMEOUT = 2 * MINUTE + 3 * SECOND;
/** kubelet --node-status-update-frequency default. upstream: pkg/kubelet/apis/config/v1beta1/defaults.go */
export const NODE_STATUS_UPDATE_FREQUENCY = 10 * SECOND;
/** kubelet nodeStatusReportFrequency: an unchanged node status is still posted this often (KubeletConfiguration default 5m) */
export const NODE_STATUS_REPORT_FREQUENCY = 5 * MINUTE;
/**
 * kubelet --sync-frequency default: each pod worker syncs its pod again after wait.Jitter(1m, 0.5),
 * between 60 and 90 s. Each sync calls WaitForAttachAndMount, which has the DSW populator process the
 * pod's volumes again (ReprocessPod): how the kubelet learns that a claim grew.
 * upstream: pkg/kubelet/apis/config/v1beta1/defaults.go (SyncFrequency), pkg/kubelet/pod_workers.go
 * (workerResyncIntervalJitterFactor 0.5), pkg/kubelet/volumemanager/volume_manager.go (ReprocessPod).
 */
export const KUBELET_SYNC_FREQUENCY = MINUTE;
export const KUBELET_RESYNC_JITTER_FACTOR = 0.5;
/** kubelet status manager: pod statuses the API server lacks are written again every syncPeriod. upstream: pkg/kubelet/status/status_manager.go (syncPeriod) */
export const STATUS_SYNC_PERIOD = 10 * SECOND;

// --- node lifecycle controller. upstream: cmd/kube-controller-manager (--node-monitor-grace-period)
export const NODE_MONITOR_GRACE_PERIOD = 40 * SECOND;
export const NODE_MONITOR_PERIOD = 5 * SECOND;

// --- taint eviction and pod GC. upstream: kube-apiserver --default-not-ready-toleration-seconds /
// --default-unreachable-toleration-seconds (300), pkg/controller/podgc/gc_controller.go gcCheckPeriod
export const DEFAULT_NOT_READY_TOLERATION_SECONDS = 300;
export const POD_GC_CHECK_PERIOD = 20 * SECOND;

// --- PV controller. upstream: kube-controller-manager --pvclaimbinder-sync-period
export const PV_CONTROLLER_SYNC_PERIOD = 15 * SECOND;

// --- sidecars. upstream: each sidecar's cmd/*/main.go flags
export const ATTACHER_TIMEOUT = 15 * SECOND;
export const PROVISIONER_TIMEOUT = 10 * SECOND;
export const RESIZER_TIMEOUT = 10 * SECOND;
export const SNAPSHOTTER_TIMEOUT = 1 * MINUTE;
export const REGISTRAR_TIMEOUT = 1 * SECOND;
/** workqueue.NewItemExponentialFailureRateLimiter(retry-interval-start, retry-interval-max) */
export const SIDECAR_RETRY_INTERVAL_START = 1 * SECOND;
export const SIDECAR_RETRY_INTERVAL_MAX = 5 * MINUTE;
/** snapshot-controller --resync-period, 15m (cmd/snapshot-controller/main.go: v4.0.0 :47, v8.0.1 :56) */
export const SNAPSHOT_CONTROLLER_RESYNC_PERIOD = 15 * MINUTE;

/** client-go: a request that waited longer than this on the client rate limiter is logged. upstream: client-go rest/request.go longThrottleLatency */
export const LONG_THROTTLE_LATENCY = 50 * MS;

/**
 * Exponential backoff as nestedpendingoperations computes it: 500ms, then ×2, capped at 2m2s.
 * `previous` is the last durationBeforeRetry (0 for the first failure).
 */
export function nextDurationBeforeRetry(previous: number): number {
  if (previous === 0) return INITIAL_DURATION_BEFORE_RETRY;
  return Math.min(previous * 2, MAX_DURATION_BEFORE_RETRY);
}

/** workqueue ItemExponentialFailureRateLimiter: base × 2^failures, capped (sidecars: 1s → 5m). */
export function sidecarRetryDelay(failures: number, base = SIDECAR_RETRY_INTERVAL_START, max = SIDECAR_RETRY_INTERVAL_MAX): number {
  return Math.min(base * 2 ** failures, max);
}

/**
 * The kubelet's container restart backoff (CrashLoopBackOff): a container that exited for the first
 * time is started again at once; after that each restart waits, from when the container finished,
 * 10s doubling to 5m (v1.30.1 pkg/kubelet/kubelet.go:189 backOffPeriod, :147 MaxContainerBackOff;
 * kuberuntime_manager.go:1319-1348 doBackOff). The kubelet sees the exit at its PLEG relist (1s).
 */
export const CONTAINER_BACKOFF_PERIOD = 10 * SECOND;
export const MAX_CONTAINER_BACKOFF = 5 * MINUTE;
