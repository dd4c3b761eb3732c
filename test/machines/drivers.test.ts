import { describe, it, expect } from 'vitest';
import { DRIVERS, getDriver } from '../../src/machines/drivers/index.ts';
import { SECOND } from '../../src/machines/shared/timing.ts';

describe('driver profiles', () => {
  it('describes cbs-csi as seed 000 shows it', () => {
    const d = getDriver('cbs');
    expect(d.name).toBe('com.tencent.cloud.csi.cbs');
    expect(d.controllerCapabilities).toEqual(['CREATE_DELETE_VOLUME', 'PUBLISH_UNPUBLISH_VOLUME', 'EXPAND_VOLUME']);
    expect(d.nodeCapabilities).toContain('STAGE_UNSTAGE_VOLUME');
    expect(d.attachRequired).toBe(true);
    expect(d.latency.ControllerPublishVolume! / SECOND).toBeCloseTo(11.5, 0);
    expect(d.latency.ControllerUnpublishVolume! / SECOND).toBeCloseTo(6.4, 0);
    expect(d.defaultFsType).toBe('ext4');
  });

  it('describes ceph-csi RBD with clone and snapshot capabilities but no ControllerPublish', () => {
    const d = DRIVERS['ceph-rbd']!;
    expect(d.name).toBe('rbd.csi.ceph.com');
    expect(d.controllerCapabilities).toEqual(expect.arrayContaining(['CLONE_VOLUME', 'CREATE_DELETE_SNAPSHOT', 'EXPAND_VOLUME']));
    expect(d.controllerCapabilities).not.toContain('PUBLISH_UNPUBLISH_VOLUME');
    expect(d.ceph?.pool).toBe('rbd');
  });

  it('rejects an unknown driver id with a message naming the known ones', () => {
    expect(() => getDriver('efs')).toThrow(/unknown driver profile "efs" \(known: cbs, ceph-rbd, nfs\)/);
  });
});
