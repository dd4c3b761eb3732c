/**
 * The public test helpers, used as a team would: a harness driving one machine alone, and the trace
 * questions. The harness cases also pin the redundant safety checks one at a time (the kubelet's
 * VolumeAttachment check behind the node status; the attach/detach controller's fresh Node read
 * behind its informer), which no full scenario exercises alone.
 */
import { describe, expect, it } from 'vitest';
import {
  attachDetachControllerDescriptor, createHarness, eventsOf, firstStep, kubeletDescriptor, objectAt, objectsOf, phaseAt, rpcCalls,
  runScenario, stepsWhere, uniqueVolumeName, volumeAttachmentName, type K8sObject,
} from '../../src/machines/index.ts';

import { DRIVER, HANDLE, NODE, PV, STAGE_CAPS, UNIQUE, VA, answerCaps, kubeletUpTo, node, pod, pv, pvc, va } from '../machines/kubelet.fixtures.ts';

describe('createHarness: one machine alone', () => {
  it('the kubelet stages a volume once the node status and the VolumeAttachment both say attached', () => {
    const h = kubeletUpTo(true);
    expect(h.csiCalls('NodeStageVolume')).toHaveLength(1);
    expect(h.csiCalls('NodeStageVolume')[0]!.request).toMatchObject({ volume_id: HANDLE });
    expect(h.logs().map((l) => l.msg)).toContain('kubelet.waitForAttachSucceeded');
  });

  it('the kubelet does not stage while the VolumeAttachment exists but is not attached, even if the node status says attached', () => {
    const h = kubeletUpTo(false);
    expect(h.csiCalls('NodeStageVolume')).toEqual([]);
    const failed = h.logs().filter((l) => l.msg === 'kubelet.operationFailed').at(-1)!;
    expect(String(failed.args.err)).toMatch(`MountVolume.WaitForAttach failed for volume "${PV}"`);
    expect(String(failed.args.err)).toMatch(`volume ${HANDLE} is not attached for volume attachment ${VA}`);
    expect(h.events('FailedMount')).toHaveLength(1);
    // once attached, the retry after the backoff stages it
    h.modified(va(true), va(false));
    h.advance(3000);
    // (1.30 asks three times before staging: STAGE_UNSTAGE_VOLUME, VOLUME_MOUNT_GROUP, then SINGLE_NODE_MULTI_WRITER inside the call)
    expect(answerCaps(h, STAGE_CAPS)).toBe(3);
    expect(h.csiCalls('NodeStageVolume')).toHaveLength(1);
  });

  const adc = (objects: K8sObject[], profile: '1.20' | '1.30' = '1.30') =>
    createHarness(attachDetachControllerDescriptor, {}, { profile, driver: DRIVER }).start(objects);

  it('the attach/detach controller waits while its informer says the node uses the volume', () => {
    const h = adc([node(NODE, [UNIQUE], [UNIQUE]), pv, pvc]);
    h.advance(5000);
    expect(h.logs().map((l) => l.msg)).not.toContain('attachDetachController.detachVolumeStarted');
    expect(h.apiRequests({ verb: 'delete', kind: 'VolumeAttachment' })).toEqual([]);
  });

  it('with a stale informer (no longer in use), its fresh read of the Node still stops the detach', () => {
    const h = adc([node(NODE, [UNIQUE], []), pv, pvc]);
    h.advance(200);
    // the node status write comes first; the detach starts once it has returned
    h.answer(h.apiRequests({ verb: 'patchStatus', kind: 'Node', name: NODE })[0]!);
    expect(h.logs().map((l) => l.msg)).toContain('attachDetachController.detachVolumeStarted');
    const get = h.apiRequests({ verb: 'get', kind: 'Node', name: NODE })[0]!;
    h.answer(get, { object: node(NODE, [], [UNIQUE]) });
    expect(h.apiRequests({ verb: 'delete', kind: 'VolumeAttachment' })).toEqual([]);
    const failed = h.logs().find((l) => l.msg === 'attachDetachController.operationFailed');
    expect(String(failed?.args.error)).toMatch(/volume is still in use by node, according to Node status/);
  });

  it('detaches before it attaches: a volume moving to another node is detached in the same pass, with no Multi-Attach error', () => {
    const h = adc([node(NODE, [UNIQUE], []), node('node-2'), pv, pvc, pod('web-0', 'node-2')]);
    h.advance(200);
    h.answer(h.apiRequests({ verb: 'patchStatus', kind: 'Node', name: NODE })[0]!);
    const order = h.logs().map((l) => l.msg).filter((m) => m === 'attachDetachController.detachVolumeStarted' || m.startsWith('attachDetachController.multiAttach'));
    expect(order[0]).toBe('attachDetachController.detachVolumeStarted');
    expect(h.events('FailedAttachVolume')).toEqual([]);
  });

  it('reports what it was asked and fails loudly on a request that does not exist', () => {
    const h = adc([node(NODE), pv, pvc, pod('web-0', NODE)]);
    expect(Object.keys(h.pendingTimers())).toContain('reconcile');
    h.advance(200);
    const create = h.apiRequests({ verb: 'create', kind: 'VolumeAttachment' })[0]!;
    expect(create.name).toBe(VA);
    h.answer(create);
    expect(() => h.answer(create)).toThrow(/answered already/);
    expect(() => h.reply({ type: 'csi.call', requestId: 'nope', rpc: 'Probe', request: {}, endpoint: 'controller', timeout: 1 })).toThrow(/no CSI call nope/);
  });
});

describe('trace questions', () => {
  const t = runScenario('pod-migration', { k8s: '1.20' });
  const POD = 'weixin-zixun-l3-vob-rbu-online-6';

  it('objectAt and phaseAt replay the objects to a story time', () => {
    expect(phaseAt(t, 'Pod', POD, 0)).toBe('Running');
    expect(objectAt(t, 'Pod', POD, 0)!.spec?.nodeName).toBe('11.142.61.164');
    expect(objectAt(t, 'Pod', `default/${POD}`)!.spec?.nodeName).toBe('11.142.60.212');
    expect(phaseAt(t, 'Pod', POD)).toBe('Running');
    const deleting = firstStep(t, { kind: 'user', summary: 'You delete pod' })!;
    expect(phaseAt(t, 'Pod', POD, deleting.t)).toBe('Terminating');
    const vas = objectsOf(t, 'VolumeAttachment').filter((v) => v.spec?.source.persistentVolumeName === 'pvc-4cde4524-6ba4-449c-891b-fe9ce8138e33');
    expect(vas.map((v) => [v.spec?.nodeName, v.status?.attached])).toEqual([['11.142.60.212', true]]);
  });

  it('rpcCalls pairs calls with their answers; eventsOf finds Events by reason; stepsWhere matches', () => {
    const unpublish = rpcCalls(t, 'ControllerUnpublishVolume');
    expect(unpublish).toHaveLength(1);
    expect(unpublish[0]).toMatchObject({ from: 'external-attacher', to: 'csi-controller-plugin', code: 'OK', request: { volume_id: 'disk-adge0gvc' } });
    expect(unpublish[0]!.replyStep).toBeGreaterThan(unpublish[0]!.step);
    expect(eventsOf(t, 'SuccessfulAttachVolume').map((e) => e.involved.name)).toEqual([POD]);
    expect(stepsWhere(t, { component: 'kubelet', rpc: 'NodePublishVolume', kind: 'rpc' })).toHaveLength(1);
    const faulted = runScenario('attach', { faults: ['ControllerPublishVolume=DEADLINE_EXCEEDEDx1'] });
    const publishes = rpcCalls(faulted, 'ControllerPublishVolume');
    expect(publishes[0]!.fault).toBe('ControllerPublishVolume=DEADLINE_EXCEEDEDx1');
    expect(publishes.at(-1)!.code).toBe('OK');
  });

  it('asks for objects a trace without them cannot give', () => {
    expect(() => objectAt(runScenario('attach', { recordObjects: false }), 'Pod', 'web-0')).toThrow(/recordObjects/);
  });
});
