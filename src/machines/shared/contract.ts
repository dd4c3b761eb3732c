/**
 * The contract between a component machine and the simulated cluster.
 *
 * A component machine is pure: it never calls anything. It reacts to inbound events (watch events
 * from its informers, results of its API writes and CSI calls, clock ticks it asked for) and emits
 * outbound events (`emit(...)` in XState v5): API requests, CSI calls/replies, log lines, timers,
 * Kubernetes Events. The cluster (src/machines/cluster) routes them the way real components talk:
 * through API objects and CSI RPCs only.
 *
 * Time: every inbound event carries `now`, virtual microseconds since the scenario started. A machine
 * that needs to act later emits `timer.requested {key, at}` and receives `clock.ticked {key, now}`.
 */
import type { AnyStateMachine } from 'xstate';
import type { CsiRpc, GrpcCode } from './csi.ts';
import type { K8sObject, Kind } from './k8s.ts';
import type { Stage, LogArgs, LogSource, MessageCatalog, ProfileId, Severity } from './messages.ts';

// ---------------------------------------------------------------- inbound (cluster -> machine)

/**
 * A CSI volume the kubelet published into a pod, as its host keeps it across a kubelet restart: the pod's
 * volume directory and its vol_data.json (pvName, driver, handle), and whether the volume is staged.
 */
export interface HostPodVolume { podUid: string; pvName: string; driver: string; handle: string; targetPath: string; stagingPath?: string }

/**
 * Sent once when the component's process starts (scenario start, or a node boots). A component that
 * reads its host's disk at start (descriptor `readsHostMounts`) gets what earlier processes left there.
 */
export interface ComponentStartedEvent { type: 'component.started'; now: number; podVolumes?: HostPodVolume[] }
/**
 * The informers' initial lists are in the component's caches (client-go cache.WaitForCacheSync returned):
 * delivered after them to a component that waits for it (descriptor.waitsForCacheSync)
 */
export interface InformersSyncedEvent { type: 'informers.synced'; now: number }
/** The host the component runs on went down (node shutdown); no more events follow until started again. */
export interface HostShutdownEvent { type: 'host.shutdown'; now: number }
/** A timer the machine asked for fired. */
export interface ClockTickedEvent { type: 'clock.ticked'; now: number; key: string }

/** Informer events for the kinds the component watches (initial list arrives as `watch.added`). */
export interface WatchAddedEvent { type: 'watch.added'; now: number; object: K8sObject }
export interface WatchModifiedEvent { type: 'watch.modified'; now: number; object: K8sObject; oldObject: K8sObject }
export interface WatchDeletedEvent { type: 'watch.deleted'; now: number; object: K8sObject }
export type WatchEvent = WatchAddedEvent | WatchModifiedEvent | WatchDeletedEvent;

/** Result of an `api.request`. HTTP-like: code 200/201 ok, 404 NotFound, 409 Conflict/AlreadyExists, 500… */
export interface ApiResultEvent {
  type: 'api.result';
  now: number;
  requestId: string;
  ok: boolean;
  code: number;
  /** the object as stored after the write (or read), when ok */
  object?: K8sObject;
  /** upstream reason: NotFound, AlreadyExists, Conflict, InternalError… */
  reason?: string;
  /** error text as client-go prints it, e.g. `volumeattachments.storage.k8s.io "csi-…" not found` */
  message?: string;
}

/** Result of a `csi.call`. */
export interface CsiResultEvent {
  type: 'csi.result';
  now: number;
  requestId: string;
  rpc: CsiRpc;
  code: GrpcCode;
  response?: Record<string, unknown>;
  /** status message (desc) for errors */
  message?: string;
}

/** A CSI RPC arriving at a plugin (CSI controller or node plugin). */
export interface CsiRequestEvent {
  type: 'csi.request';
  now: number;
  requestId: string;
  rpc: CsiRpc;
  request: Record<string, unknown>;
  /** component id of the caller */
  caller: string;
  /** set when a scenario fault makes this call fail: the plugin logs it and replies with this code */
  fault?: { code: GrpcCode; message: string };
}

/**
 * The kubelet's plugin watcher saw a registration socket appear (or go) under
 * /var/lib/kubelet/plugins_registry on its host. upstream: pkg/kubelet/pluginmanager/pluginwatcher.
 */
export interface PluginSocketEvent { type: 'plugin.socketCreated' | 'plugin.socketRemoved'; now: number; path: string; owner: string }

/**
 * The answer of a `host.call`: the kubelet's own work on the node's file system finished (SetVolumeOwnership: the walk
 * over a volume's files that gives them the pod's fsGroup; StatVolumeRoot: the group of the volume's top directory),
 * `error` as Go's os package words it when it failed.
 */
export interface HostResultEvent {
  type: 'host.result';
  now: number;
  requestId: string;
  op: HostCallEmitted['op'];
  ok: boolean;
  error?: string;
  /** StatVolumeRoot: the group of the volume's top directory, and whether it has rwx for owner and group and the setgid bit */
  rootGid?: number;
  rootModeOk?: boolean;
}

export type ClusterEvent =
  | PluginSocketEvent
  | ComponentStartedEvent | InformersSyncedEvent | HostShutdownEvent | ClockTickedEvent | WatchEvent
  | ApiResultEvent | CsiResultEvent | CsiRequestEvent | HostResultEvent;

// ---------------------------------------------------------------- outbound (machine -> cluster)

export type ApiVerb = 'create' | 'update' | 'updateStatus' | 'patch' | 'patchStatus' | 'delete' | 'get';

export interface ApiRequestEmitted {
  type: 'api.request';
  requestId: string;
  verb: ApiVerb;
  kind: Kind;
  namespace?: string;
  name: string;
  /** full object for create/update/updateStatus */
  object?: K8sObject;
  /** JSON merge patch (RFC 7386) for patch/patchStatus; `null` removes a field */
  patch?: Record<string, unknown>;
  /** delete: grace period; 0 deletes a Pod at once (the kubelet's final delete) */
  gracePeriodSeconds?: number;
  /** optional one-sentence summary for the trace; the cluster writes a generic one otherwise */
  summary?: string;
  /** a routine write (a heartbeat) applied like any other but, when it succeeds, not recorded as a step */
  quiet?: boolean;
  /**
   * a subresource the request is for: 'binding' is a create of pods/<name>/binding (the scheduler's bind,
   * default_binder.go), `object` a Binding whose target is the node; it sets the pod's spec.nodeName
   */
  subresource?: 'binding';
  /**
   * sent from a goroutine of its own (the kubelet's status manager): the request leaves without delaying the
   * reaction's later outputs, and its random draws (latency, client-side throttling, the answer, when the watch
   * events it causes arrive) come from the component's own stream, so that adding such a write moves no other
   * timing by itself (what its watchers then do draws as usual)
   */
  ownStream?: true;
  /**
   * the stage of the work the write is part of, where the machine knows it (the attach/detach controller's
   * VolumeAttachment create is an attach's, its delete a detach's): the trace's step shows it; none otherwise
   */
  stage?: Stage;
}

export interface CsiCallEmitted {
  type: 'csi.call';
  requestId: string;
  rpc: CsiRpc;
  request: Record<string, unknown>;
  /**
   * the driver's controller plugin, the node plugin on `node` (default: the caller's host), or the
   * node-driver-registrar's registration socket on `node` (GetInfo, NotifyRegistrationStatus)
   */
  endpoint: 'controller' | 'node' | 'registrar';
  node?: string;
  /** the caller's deadline for this call (microseconds), e.g. the attacher's --timeout 15s */
  timeout: number;
  summary?: string;
  /**
   * the stage of the work the call is part of, for a call whose RPC has none of its own (the kubelet's
   * NodeGetCapabilities inside a MountDevice is the mount's; node-driver-registrar's GetPluginInfo is the
   * registration's): the trace's step shows it (stageOfCsiCall)
   */
  stage?: Stage;
}

/**
 * Work a component does on its node's own file system, which takes time and can fail (no CSI call, no API request):
 * the kubelet's SetVolumeOwnership, a walk over every file of a pod's volume at `path` (pkg/volume/volume_linux.go).
 * The cluster answers with a `host.result` when it is done (host faults make it slow or fail).
 */
export interface HostCallEmitted {
  type: 'host.call';
  requestId: string;
  /** SetVolumeOwnership: the walk giving every file the group `fsGroup`; StatVolumeRoot: a stat of the top directory */
  op: 'SetVolumeOwnership' | 'StatVolumeRoot';
  path: string;
  /** the volume (its unique name): its files are the same on whichever node mounts it */
  volume: string;
  fsGroup: number;
  /** the step's sentence (a summaries catalog's), as csi.call's */
  summary?: string;
  /** the stage of the operation the work is part of (SetVolumeOwnership: the mount's) */
  stage?: Stage;
}

export interface CsiReplyEmitted {
  type: 'csi.reply';
  requestId: string;
  code: GrpcCode;
  response?: Record<string, unknown>;
  message?: string;
  summary?: string;
}

export interface LogEmitted {
  type: 'log';
  /** message id in the catalog (src/machines/catalog.ts) */
  msg: string;
  args: LogArgs;
  /**
   * the stage of the work the machine did when it printed the line (the operation that failed, the
   * VolumeAttachment sync the gRPC call belongs to), for generic lines; the catalog's stage otherwise
   */
  stage?: Stage;
  /** which of the message's `variants` the step's summary says (MessageDef.variants) */
  variant?: string;
  /**
   * the few microseconds the line takes are drawn from the component's own random stream, not the run's: a line a
   * component prints while deciding to do nothing (csi-resizer's "No need to resize PVC") moves no other component's timing
   */
  ownStream?: true;
}

export interface TimerRequestedEmitted { type: 'timer.requested'; key: string; at: number }
export interface TimerCancelledEmitted { type: 'timer.cancelled'; key: string }

/** record.EventRecorder.Event: the cluster creates/aggregates the Event object and, where the profile says so, logs it. */
export interface EventRecordedEmitted {
  type: 'event.recorded';
  involved: { kind: Kind; namespace?: string; name: string };
  /**
   * The ObjectReference fields the recorder fills besides kind, namespace and name: all three when absent
   * (ref.GetReference of the object). A reference built by hand names fewer: the taint manager's none
   * (1.20) or apiVersion only (1.30), the node lifecycle controller's apiVersion and uid
   * (RecordNodeStatusChange, pkg/controller/util/node/controller_utils.go).
   */
  ref?: ReadonlyArray<'apiVersion' | 'uid' | 'resourceVersion'>;
  eventType: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** A process created (or removed) a socket file in the kubelet's plugin registry directory on its host. */
export interface SocketEmitted { type: 'socket.created' | 'socket.removed'; path: string }

/**
 * The process exits by itself (os.Exit, klog.Fatal): its connections close, so the calls it was
 * serving fail at once, and the kubelet starts its container again, at once the first time and then
 * after the CrashLoopBackOff (10s doubling to 5m).
 */
export interface ProcessExitedEmitted { type: 'process.exited'; code: number }

/**
 * The states of what a machine holds (a volume, an operation) that changed while it handled one
 * event, keyed by what they are ("volume kubernetes.io/csi/…^vol-1": "DeviceGloballyMounted"). The
 * cluster puts them, prefixed with the component's id, beside the machine's own state in the steps
 * of that reaction.
 */
export interface StatesChangedEmitted {
  type: 'states.changed';
  states: Record<string, string>;
  /** every state each subject passed through, in order, when `states` keeps only the last (noteState) */
  moves?: Array<[subject: string, state: string]>;
}

export type ClusterEmitted =
  | SocketEmitted | ProcessExitedEmitted
  | ApiRequestEmitted | CsiCallEmitted | CsiReplyEmitted | HostCallEmitted | LogEmitted
  | TimerRequestedEmitted | TimerCancelledEmitted | EventRecordedEmitted | StatesChangedEmitted;

// ---------------------------------------------------------------- component descriptors

/** What every component machine receives as input (each machine extends it). */
export interface ComponentInput {
  /** unique id in the cluster, e.g. "kubelet/node-1" */
  id: string;
  /** host (node name, or the control-plane host) */
  host: string;
  profile: ProfileId;
  /** its process's klog -v, when a scenario sets it (flags: { <component>: { v: N } }); else the profile's for its program */
  verbosity?: number;
}

/**
 * How the cluster runs a component kind. Each machine folder exports one.
 */
export interface ComponentDescriptor<I extends ComponentInput = ComponentInput> {
  /** the real component's name, e.g. "external-attacher" */
  name: string;
  machine: AnyStateMachine;
  /** which program's log stream its lines go to */
  source: LogSource;
  /** kinds its informers watch */
  watches: Kind[];
  /**
   * kinds watched only for the component's own node (Pod: spec.nodeName, Node/CSINode: name,
   * VolumeAttachment: spec.nodeName), as the kubelet's field selectors do; indexed by the cluster
   */
  nodeScoped?: Kind[];
  /**
   * syncs nothing until its informers' initial lists are all in (it waits for cache sync, then its
   * workers start): told by an informers.synced event after the lists
   */
  waitsForCacheSync?: boolean;
  /** receives plugin.socketCreated/Removed for its host (the kubelet's plugin watcher) */
  watchesPluginSockets?: boolean;
  /**
   * informers with their own watch stream: their events keep their own order and delivery jitter, so
   * they neither wait behind nor hold back the component's other deliveries (added without moving
   * the timing of what the component saw before)
   */
  ownStream?: Kind[];
  /** optional informer filter on top of that */
  watchFilter?: (object: K8sObject, input: I) => boolean;
  messages: MessageCatalog;
  /** the component reads its host's pod volume directories when it starts (the kubelet's reconstruction) */
  readsHostMounts?: boolean;
  /**
   * at which -v this component's own event broadcaster logs its Events, where that differs from its
   * program's (the profile's eventLogV): 1.30's kube-controller-manager controllers each start their own
   * broadcaster with StartStructuredLogging(3); null: its broadcaster never logs (1.30's kube-scheduler)
   */
  eventLogV?: Partial<Record<ProfileId, number | null>>;
  /** optional: the component's internal state as plain tables (e.g. DSW/ASW), captured on steps on request */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  world?: (context: any) => unknown;
  /**
   * optional: which lifecycle machine a key of a step's `states` names (the key after the instance
   * id, e.g. "volume_mount kubernetes.io/csi/…^vol-1 pod default/web-0"), first match wins; the
   * player and the component pages draw that machine's chart for it
   */
  stateSubjects?: ReadonlyArray<{ match: RegExp; machine: AnyStateMachine }>;
}

export type { Severity };
export type { LogArgs };
