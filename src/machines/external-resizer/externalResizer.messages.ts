/**
 * csi-resizer log lines. upstream: kubernetes-csi/external-resizer pkg/controller/controller.go at
 * v1.1.0 (profile 1.20, printf klog) and v1.11.1 (profile 1.30, klog.InfoS); the gRPC lines come
 * from csi-lib-utils connection.go LogGRPC (v0.9.0 printf :182-186, v0.18.1 structured :264/:270).
 * Quirk kept from v1.1.0: "Resize volume succeeded for volume %q, start to update PV's capacity" is
 * printed twice, once by resizeVolume (:447) and once by updatePVCapacity (:537).
 */
import { logGrpcFormats } from '../shared/logGrpc.ts';
import { defineMessages } from '../shared/messages.ts';

const S = 'csi-resizer' as const;

export const externalResizerMessages = defineMessages({
  'externalResizer.startedPvcProcessing': {
    source: S, stage: 'resize', severity: 'I',
    summary: 'csi-resizer starts processing claim {key}.',
    formats: {
      '1.20': { file: 'controller.go', line: 281, text: 'Started PVC processing {key:q}', v: 4 },
      '1.30': { file: 'controller.go', line: 284, msg: 'Started PVC processing for resize controller', kv: 'key={key:q}', v: 4 },
    },
  },
  // what syncPVC says of a claim it does not resize (every update of every claim that reaches its queue):
  // v1.1.0 :294-324 and pvNeedResize :348/:353 (printf); v1.11.1 :297-341 and :366/:371 (structured), where it
  // looks for the claim's PV before asking whether the claim needs resizing
  'externalResizer.pvcDeleted': {
    source: S, stage: 'other', severity: 'I',
    summary: 'csi-resizer finds claim {pvc} gone from its cache: nothing to do.',
    formats: {
      '1.20': { file: 'controller.go', line: 294, text: 'PVC {pvc} is deleted or does not exist', v: 3 },
      '1.30': { file: 'controller.go', line: 297, msg: 'PVC is deleted or does not exist', kv: 'PVC={pvc:q}', v: 3 },
    },
  },
  'externalResizer.pvNotCreatedYet': {
    source: S, stage: 'other', severity: 'I',
    summary: 'Claim {pvc} has no volume yet (spec.volumeName is empty): csi-resizer has nothing to resize.',
    formats: {
      '1.30': { file: 'controller.go', line: 307, msg: 'PV bound to PVC is not created yet', kv: 'PVC={pvc:q}', v: 4 },
    },
  },
  'externalResizer.pvOfPvcNotFound': {
    source: S, stage: 'other', severity: 'W',
    summary: 'csi-resizer looked at claim {pvc}: the volume it is bound to ({pv}) is not there (yet), so there is nothing to resize.',
    formats: {
      '1.20': { file: 'controller.go', line: 314, text: 'PV {pv:q} bound to PVC {pvc} not found' },
      '1.30': { file: 'controller.go', line: 316, severity: 'I', msg: 'PV bound to PVC not found', kv: 'PV={pv:q} PVC={pvc:q}' },
    },
  },
  'externalResizer.noNeedToResizePvc': {
    source: S, stage: 'other', severity: 'I',
    summary: 'csi-resizer looked at claim {pvc}: it asks for no more than it has, so there is nothing to resize.',
    formats: {
      '1.20': { file: 'controller.go', line: 304, v: 4, text: 'No need to resize PVC {pvc:q}' },
      '1.30': { file: 'controller.go', line: 332, v: 4, msg: 'No need to resize PVC', kv: 'PVC={pvc:q}' },
    },
  },
  'externalResizer.resizerDoesNotSupportPv': {
    source: S, stage: 'other', severity: 'I',
    summary: 'Volume {pv} is not a CSI volume of {driver}: this csi-resizer leaves it alone.',
    formats: {
      '1.20': { file: 'controller.go', line: 348, v: 4, text: 'Resizer {driver:q} doesn\'t support PV {pv:q}' },
      '1.30': { file: 'controller.go', line: 366, v: 4, msg: 'Resizer doesn\'t support PV', kv: 'controller={driver:q} PV={pv:q}' },
    },
  },
  'externalResizer.pvNotBoundToPvc': {
    source: S, stage: 'other', severity: 'I',
    summary: 'The volume of claim {pvc} is not bound to it (its claimRef names another claim): nothing to resize.',
    formats: {
      '1.20': { file: 'controller.go', line: 353, v: 4, text: 'persistent volume is not bound to PVC being updated: {pvc}' },
      '1.30': { file: 'controller.go', line: 371, v: 4, msg: 'Persistent volume is not bound to PVC being updated', kv: 'PVC={pvc:q}' },
    },
  },
  'externalResizer.noNeedToResizePv': {
    source: S, stage: 'other', severity: 'I',
    summary: 'Volume {pv} already has the size claim {pvc} asks for and the kubelet is to grow the file system: csi-resizer has nothing to do.',
    formats: {
      '1.20': { file: 'controller.go', line: 324, v: 4, text: 'No need to resize PV {pv:q}' },
      '1.30': { file: 'controller.go', line: 341, v: 4, msg: 'No need to resize PV', kv: 'PV={pv:q}' },
    },
  },
  'externalResizer.grpcCall': {
    source: S, stage: 'resize', severity: 'I',
    summary: 'csi-resizer calls {method} on the CSI controller plugin.',
    formats: logGrpcFormats.call(),
  },
  'externalResizer.grpcRequest': {
    source: S, stage: 'resize', severity: 'I',
    summary: 'The request sent is {request}.',
    formats: logGrpcFormats.request(),
  },
  'externalResizer.grpcResponse': {
    source: S, stage: 'resize', severity: 'I',
    summary: 'The CSI plugin answered {response}.',
    formats: logGrpcFormats.response('{errStructured}'),
  },
  'externalResizer.grpcError': {
    source: S, stage: 'resize', severity: 'I',
    summary: 'The call ended with error {err}.',
    formats: logGrpcFormats.error(),
  },
  'externalResizer.resizeVolumeSucceeded': {
    source: S, stage: 'resize', severity: 'I',
    summary: 'The driver expanded volume {pv}; csi-resizer now updates the PV capacity.',
    formats: {
      '1.20': { file: 'controller.go', line: 447, text: 'Resize volume succeeded for volume {pv:q}, start to update PV\'s capacity', v: 4 },
      '1.30': { file: 'controller.go', line: 472, msg: 'Resize volume succeeded start to update PV\'s capacity', kv: 'PV={pv:q}', v: 4 },
    },
  },
  'externalResizer.updatePvCapacity': {
    source: S, stage: 'resize', severity: 'I',
    summary: 'csi-resizer patches PV {pv} with the new capacity.',
    formats: {
      '1.20': { file: 'controller.go', line: 537, text: 'Resize volume succeeded for volume {pv:q}, start to update PV\'s capacity', v: 4 },
      '1.30': { file: 'controller.go', line: 574, msg: 'Resize volume succeeded, start to update PV\'s capacity', kv: 'PV={pv:q}', v: 4 },
    },
  },
  'externalResizer.updateCapacitySucceeded': {
    source: S, stage: 'resize', severity: 'I',
    summary: 'PV {pv} now has capacity {capacity}.',
    formats: {
      '1.20': { file: 'controller.go', line: 453, text: 'Update capacity of PV {pv:q} to {capacity} succeeded', v: 4 },
      '1.30': { file: 'controller.go', line: 478, msg: 'Update capacity succeeded', kv: 'PV={pv:q} capacity={capacity:q}', v: 4 },
    },
  },
  'externalResizer.markFsResizeRequired': {
    source: S, stage: 'resize', severity: 'I',
    summary: 'Claim {pvc} is marked FileSystemResizePending: the kubelet must grow the file system.',
    formats: {
      '1.20': { file: 'controller.go', line: 475, text: 'Mark PVC {pvc:q} as file system resize required', v: 4 },
      '1.30': { file: 'controller.go', line: 504, msg: 'Mark PVC as file system resize required', kv: 'PVC={pvc:q}', v: 4 },
    },
  },
  'externalResizer.resizeFinished': {
    source: S, stage: 'resize', severity: 'I',
    summary: 'Claim {pvc} is resized: its status capacity is now the requested size.',
    formats: {
      '1.20': { file: 'controller.go', line: 512, text: 'Resize PVC {pvc:q} finished', v: 4 },
      '1.30': { file: 'controller.go', line: 551, msg: 'Resize PVC finished', kv: 'PVC={pvc:q}', v: 4 },
    },
  },
  'externalResizer.errorSyncingPvc': {
    source: S, stage: 'resize', severity: 'E',
    summary: 'Resizing claim failed ({err}); csi-resizer retries with exponential backoff.',
    cause: 'ControllerExpandVolume or an API write failed: the backend refused or timed out, or the claim changed meanwhile.',
    next: 'Read the VolumeResizeFailed event on the claim and the CSI controller plugin\'s log; check the backend quota and whether the driver supports online expansion.',
    formats: {
      '1.20': { file: 'controller.go', line: 272, text: 'Error syncing PVC: {err}' },
      '1.30': { file: 'controller.go', line: 275, msg: 'Error syncing PVC', kv: 'err={err:q}' },
    },
  },
});
