/**
 * nfs.csi.k8s.io: kubernetes-csi/csi-driver-nfs, which makes a subdirectory of an NFS export per
 * volume. Nothing is attached (its CSIDriver says attachRequired: false) and nothing is staged: the
 * node plugin mounts <server>:<share>/<subdir> straight into the pod in NodePublishVolume, and any
 * number of nodes may do so at once (ReadWriteMany).
 * upstream (v4.13.4): pkg/nfs/nfs.go NewDriver (controller capabilities CREATE_DELETE_VOLUME,
 * SINGLE_NODE_MULTI_WRITER, CLONE_VOLUME, CREATE_DELETE_SNAPSHOT, EXPAND_VOLUME; node capabilities
 * GET_VOLUME_STATS, SINGLE_NODE_MULTI_WRITER and UNKNOWN, no STAGE_UNSTAGE_VOLUME),
 * deploy/csi-nfs-driverinfo.yaml (attachRequired: false, fsGroupPolicy: File), pkg/nfs/controllerserver.go
 * (CreateVolume mounts the export under --working-mount-dir /tmp, makes the subdirectory and unmounts;
 * its response has capacity_bytes 0, so the PV takes the claim's size), pkg/nfs/utils.go logGRPC.
 * Latencies are typical of an NFS server on the cluster network, not measured from a seed.
 */
import { MS } from '../shared/timing.ts';
import type { DriverProfile } from './types.ts';

export const nfs: DriverProfile = {
  id: 'nfs',
  name: 'nfs.csi.k8s.io',
  vendorVersion: 'v4.13.4',
  controllerCapabilities: ['CREATE_DELETE_VOLUME', 'SINGLE_NODE_MULTI_WRITER', 'CLONE_VOLUME', 'CREATE_DELETE_SNAPSHOT', 'EXPAND_VOLUME'],
  nodeCapabilities: ['GET_VOLUME_STATS', 'SINGLE_NODE_MULTI_WRITER'],
  attachRequired: false,
  topologyKeys: [],
  latency: {
    CreateVolume: 120 * MS,
    DeleteVolume: 150 * MS,
    NodePublishVolume: 90 * MS,
    NodeUnpublishVolume: 40 * MS,
  },
  // NFS has no filesystem to make: the StorageClass names none and csi-provisioner's --default-fstype is unset
  defaultFsType: '',
  volumeIdStyle: 'nfs',
  logStyle: 'csi-driver-nfs',
  multiNodeAccess: true,
};
