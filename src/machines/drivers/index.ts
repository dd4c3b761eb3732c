/** Driver profiles by id: what makes the generic CSI plugin machines a particular real driver. */
import { cbs } from './cbs.ts';
import { cephRbd } from './cephRbd.ts';
import { nfs } from './nfs.ts';
import type { DriverProfile } from './types.ts';

export const DRIVERS: Record<string, DriverProfile> = { [cbs.id]: cbs, [cephRbd.id]: cephRbd, [nfs.id]: nfs };
export const getDriver = (id: string): DriverProfile => {
  const d = DRIVERS[id];
  if (!d) throw new Error(`unknown driver profile "${id}" (known: ${Object.keys(DRIVERS).join(', ')})`);
  return d;
};
export { cbs, cephRbd, nfs };
export type { CephBackendConfig, ControllerCapability, DriverProfile, NodeCapability } from './types.ts';
