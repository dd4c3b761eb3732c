/**
 * rbd.csi.ceph.com: ceph-csi's RBD driver (seed 004, k8s-facts §7).
 * upstream: ceph/ceph-csi internal/rbd/driver/driver.go (controller capabilities: CREATE_DELETE_VOLUME,
 * CREATE_DELETE_SNAPSHOT, CLONE_VOLUME, EXPAND_VOLUME; node: STAGE_UNSTAGE_VOLUME, GET_VOLUME_STATS,
 * EXPAND_VOLUME). RBD does not advertise PUBLISH_UNPUBLISH_VOLUME: the external-attacher marks its
 * VolumeAttachments attached without a ControllerPublishVolume call, yet CSIDriver.attachRequired is true.
 */
import { MS, SECOND } from '../shared/timing.ts';
import type { DriverProfile } from './types.ts';

export const cephRbd: DriverProfile = {
  id: 'ceph-rbd',
  name: 'rbd.csi.ceph.com',
  vendorVersion: 'v3.12.2',
  controllerCapabilities: ['CREATE_DELETE_VOLUME', 'CREATE_DELETE_SNAPSHOT', 'CLONE_VOLUME', 'EXPAND_VOLUME'],
  nodeCapabilities: ['STAGE_UNSTAGE_VOLUME', 'GET_VOLUME_STATS', 'EXPAND_VOLUME'],
  attachRequired: true,
  topologyKeys: [],
  latency: {
    CreateVolume: 600 * MS,
    DeleteVolume: 400 * MS,
    CreateSnapshot: 900 * MS,
    DeleteSnapshot: 400 * MS,
    ControllerExpandVolume: 300 * MS,
    NodeStageVolume: 1200 * MS,
    NodeUnstageVolume: 500 * MS,
    NodePublishVolume: 60 * MS,
    NodeUnpublishVolume: 40 * MS,
    NodeExpandVolume: 1 * SECOND,
  },
  defaultFsType: 'ext4',
  volumeIdStyle: 'ceph-csi-id',
  logStyle: 'ceph-csi',
  multiNodeAccess: false,
  ceph: {
    clusterID: '4a9e463a-4853-4237-a5c5-9ae9d25bacda',
    pool: 'rbd',
    poolId: 1,
    monitors: '10.20.10.12,10.20.10.13',
    instanceID: 'default',
    imageFeatures: ['layering'],
  },
};
