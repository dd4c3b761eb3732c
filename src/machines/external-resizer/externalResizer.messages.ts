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
