/**
 * com.tencent.cloud.csi.cbs: Tencent Cloud Block Storage, as seed 000 shows it.
 * upstream: TencentCloud/kubernetes-csi-tencentcloud driver/cbs/controller.go (controllerCaps,
 * volumeCaps SINGLE_NODE_WRITER only), driver/cbs/node.go. Latencies come from seed 000's timestamps:
 * ControllerPublishVolume 06:58:21.457 -> "Attached" 06:58:32.934 (11.5s), ControllerUnpublishVolume
 * 06:58:14.258 -> "Detached" 06:58:20.641 (6.4s).
 */
import { MS, SECOND } from '../shared/timing.ts';
import type { DriverProfile } from './types.ts';

export const cbs: DriverProfile = {
  id: 'cbs',
  name: 'com.tencent.cloud.csi.cbs',
  vendorVersion: 'v1.2.0',
  controllerCapabilities: ['CREATE_DELETE_VOLUME', 'PUBLISH_UNPUBLISH_VOLUME', 'EXPAND_VOLUME'],
  nodeCapabilities: ['STAGE_UNSTAGE_VOLUME', 'GET_VOLUME_STATS'],
  attachRequired: true,
  topologyKeys: ['topology.com.tencent.cloud.csi.cbs/zone'],
  // driver/cbs/node.go: NodeGetInfo's zone comes from the CVM's metadata service, never empty. Without it
  // csi-provisioner (Topology on: v5.0.1 by default, v2.1.0 through Tencent's manifest flag) finds no
  // topology and fails every CreateVolume ("no available topology found", pkg/controller/topology.go)
  instanceZone: 'ap-guangzhou-3',
  // driver/cbs/node.go MaxAttachVolumePerNode, returned by NodeGetInfo
  maxVolumesPerNode: 20,
  latency: {
    CreateVolume: 3 * SECOND,
    DeleteVolume: 1500 * MS,
    ControllerPublishVolume: 11_477 * MS,
    ControllerUnpublishVolume: 6_383 * MS,
    ControllerExpandVolume: 2 * SECOND,
    NodeStageVolume: 80 * MS,
    NodeUnstageVolume: 60 * MS,
    NodePublishVolume: 30 * MS,
    NodeUnpublishVolume: 25 * MS,
    NodeExpandVolume: 300 * MS,
  },
  defaultFsType: 'ext4',
  volumeIdStyle: 'cbs-disk',
  logStyle: 'csi-common',
  multiNodeAccess: false,
};
