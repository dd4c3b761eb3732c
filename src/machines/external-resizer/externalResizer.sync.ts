/**
 * Pure decisions of csi-resizer's syncPVC: does a claim need resizing, and the CSI request.
 * upstream: external-resizer pkg/controller/controller.go pvcNeedResize / pvNeedResize,
 * pkg/resizer/csi_resizer.go CanSupport / Resize / GetVolumeCapabilities.
 */
import { CSI_ACCESS_MODE } from '../shared/csi.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { parseQuantity } from '../shared/quantity.ts';

export const requestedBytes = (pvc: K8sObject): number => parseQuantity(pvc.spec?.resources?.requests?.storage);
export const statusBytes = (pvc: K8sObject): number => parseQuantity(pvc.status?.capacity?.storage);

const hasCondition = (pvc: K8sObject, type: string): boolean =>
  (pvc.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === type && c.status === 'True');

/** pvcNeedResize: only a Bound claim whose request is above its status capacity. */
export function pvcNeedResize(pvc: K8sObject): boolean {
  return pvc.status?.phase === 'Bound' && !!pvc.spec?.volumeName && requestedBytes(pvc) > statusBytes(pvc);
}

/** pvNeedResize: why not (CanSupport: the PV is a CSI volume of this driver; the PV is bound to this claim; already expanded), or null to resize. */
export function pvNeedResize(pvc: K8sObject, pv: K8sObject, driver: string): 'unsupported' | 'notBound' | 'noNeed' | null {
  if (pv.spec?.csi?.driver !== driver) return 'unsupported';
  const ref = pv.spec?.claimRef;
  if (!ref || ref.namespace !== pvc.metadata.namespace || (ref.uid && ref.uid !== pvc.metadata.uid)) return 'notBound';
  if (parseQuantity(pv.spec?.capacity?.storage) >= requestedBytes(pvc)) {
    // already expanded in the backend: only go on while the claim still says Resizing
    return hasCondition(pvc, 'FileSystemResizePending') ? 'noNeed' : null;
  }
  return null;
}

/** ControllerExpandVolumeRequest as the protosanitizer prints it (JSON names of csi.proto). */
export function expandRequest(pv: K8sObject, bytes: number, singleNodeMultiWriter = false, secrets?: Record<string, string>): Record<string, unknown> {
  // (GetVolumeCapabilities: a driver with SINGLE_NODE_MULTI_WRITER gets ReadWriteOnce as SINGLE_NODE_MULTI_WRITER)
  const mode = pv.spec?.accessModes?.includes('ReadWriteMany') ? CSI_ACCESS_MODE.MULTI_NODE_MULTI_WRITER
    : pv.spec?.accessModes?.includes('ReadOnlyMany') ? CSI_ACCESS_MODE.MULTI_NODE_READER_ONLY
      : singleNodeMultiWriter ? CSI_ACCESS_MODE.SINGLE_NODE_MULTI_WRITER : CSI_ACCESS_MODE.SINGLE_NODE_WRITER;
  const access = pv.spec?.volumeMode === 'Block' ? { Block: {} } : { Mount: { ...(pv.spec?.csi?.fsType ? { fs_type: pv.spec.csi.fsType } : {}) } };
  return {
    capacity_range: { required_bytes: bytes },
    volume_capability: { AccessType: access, access_mode: { mode } },
    volume_id: pv.spec?.csi?.volumeHandle,
    // the PV's controllerExpandSecretRef's data (Resize's getCredentials)
    ...(secrets ? { secrets } : {}),
  };
}
