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
  /** how long the backend takes for each RPC (virtual µs); RPCs not listed answer in about a millisecond */
  latency: Partial<Record<CsiRpc, number>>;
  /** default fsType when the StorageClass names none */
  defaultFsType: string;
  /** kind of volume ids the backend hands out */
  volumeIdStyle: 'cbs-disk' | 'ceph-csi-id';
}
