/**
 * A driver profile: what a real CSI driver advertises and how its backend behaves, as data. The CSI
 * controller and node plugin machines are generic; this is what makes them com.tencent.cloud.csi.cbs
 * or rbd.csi.ceph.com.
 */
import type { CsiRpc } from '../shared/csi.ts';

export type ControllerCapability =
  | 'CREATE_DELETE_VOLUME' | 'PUBLISH_UNPUBLISH_VOLUME' | 'LIST_VOLUMES' | 'GET_CAPACITY'
  | 'CREATE_DELETE_SNAPSHOT' | 'LIST_SNAPSHOTS' | 'CLONE_VOLUME' | 'PUBLISH_READONLY' | 'EXPAND_VOLUME'
  | 'LIST_VOLUMES_PUBLISHED_NODES' | 'SINGLE_NODE_MULTI_WRITER';
export type NodeCapability = 'STAGE_UNSTAGE_VOLUME' | 'GET_VOLUME_STATS' | 'EXPAND_VOLUME' | 'SINGLE_NODE_MULTI_WRITER';

export interface DriverProfile {
  /** profile id used by scenarios and the CLI */
  id: string;
  /** CSI driver name (GetPluginInfo), e.g. "com.tencent.cloud.csi.cbs" */
  name: string;
  vendorVersion: string;
  controllerCapabilities: ControllerCapability[];
  nodeCapabilities: NodeCapability[];
  /** CSIDriver.spec.attachRequired: false means no VolumeAttachment and no ControllerPublish */
  attachRequired: boolean;
  /** topology keys reported by NodeGetInfo (empty: no topology) */
  topologyKeys: string[];
  /**
   * the zone a node plugin reports for a node that carries no topology.kubernetes.io/zone label: a cloud
   * driver reads it from the instance's metadata, so every node it runs on has one
   */
  instanceZone?: string;
  /**
   * NodeGetInfo max_volumes_per_node: how many of its volumes a node can take (the kubelet writes it
   * into CSINode as allocatable.count, which the scheduler counts against); unset or 0: no limit said
   */
  maxVolumesPerNode?: number;
  /** how long the backend takes for each RPC (virtual µs); RPCs not listed answer in about a millisecond */
  latency: Partial<Record<CsiRpc, number>>;
  /** default fsType when the StorageClass names none */
  defaultFsType: string;
  /**
   * kind of volume ids the backend hands out: cbs "disk-…" (sizes in 10 GiB steps), ceph-csi ids, csi-driver-nfs
   * "<server>#<share>#<subdir>#<uuid>#<onDelete>" (pkg/nfs/controllerserver.go getVolumeIDFromNfsVol), or a generic "vol-…"
   */
  volumeIdStyle: 'cbs-disk' | 'ceph-csi-id' | 'nfs' | 'generic';
  /**
   * how the driver's gRPC interceptor prints its lines: 'csi-common' (kubernetes-csi/drivers
   * pkg/csi-common/utils.go logGRPC, vendored by cbs-csi), 'ceph-csi' (`ID: <n> Req-ID: <id> ` prefix) or
   * 'csi-driver-nfs' (pkg/nfs/utils.go logGRPC: the same words at other lines and levels).
   * Optional for compatibility; the plugins derive it from volumeIdStyle when absent.
   */
  logStyle?: 'csi-common' | 'ceph-csi' | 'csi-driver-nfs';
  /** CSI access modes the backend can serve; a volume published with a single-node mode stays on one node */
  multiNodeAccess?: boolean;
  /** the driver cannot serve raw block volumes: CreateVolume refuses a Block capability */
  noRawBlock?: boolean;
  /** ceph-csi only: the cluster, pool and monitors named in volume ids and rbd lines */
  ceph?: CephBackendConfig;
}

export interface CephBackendConfig {
  /** StorageClass clusterID (a UUID in most deployments; its length is printed as 4 hex digits in the volume id) */
  clusterID: string;
  /** RADOS pool holding images and the journal ("rbd") */
  pool: string;
  /** numeric pool id, printed as 16 hex digits in the volume id */
  poolId: number;
  /** monitors, as the rbd lines print them */
  monitors: string;
  /** --instanceid, default "default": the csiDirectory omap is csi.volumes.<instanceID> */
  instanceID: string;
  /** image features passed to rbd create */
  imageFeatures: string[];
}

/**
 * The backend's volume id prefix per id style: cbs hands out "disk-…" ids, a generic backend "vol-…".
 * ceph-csi ids are composed from its journal (cephJournal.ts); a ceph-style profile without a journal
 * configuration falls back to the cbs form.
 */
export const VOLUME_ID_PREFIX: Record<DriverProfile['volumeIdStyle'], string> = { 'cbs-disk': 'disk-', generic: 'vol-', 'ceph-csi-id': 'disk-', nfs: '' };

/**
 * What a run may change about a scenario's driver (RunOptions.driver, the what-if panel, `csi-flows
 * trace --driver`, ?driver=): its CSIDriver's attachRequired, and whether the node plugin advertises
 * STAGE_UNSTAGE_VOLUME.
 */
export const CAPABILITIES = ['attachRequired', 'stageUnstage'] as const;

export type DriverCapabilities = { [K in (typeof CAPABILITIES)[number]]?: boolean };
