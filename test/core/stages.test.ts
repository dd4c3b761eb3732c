/**
 * The stage each volume-path message belongs to, written out by hand (not read back from the catalog,
 * so that a wrong stage in the catalog cannot agree with itself): a reader filtering a trace or a
 * pasted log by "unmount" must see every unmount line, and no mount line.
 */
import { describe, expect, it } from 'vitest';
import { buildKnowledge, catalog, explainText, guessStage, runScenario } from '../../src/machines/index.ts';

const EXPECTED: Record<string, string> = {
  'kubelet.verifyControllerAttachedVolumeStarted': 'attach', 'kubelet.controllerAttachSucceeded': 'attach',
  'kubelet.mountVolumeStarted': 'mount', 'kubelet.waitForAttachEntering': 'mount', 'kubelet.waitForAttachSucceeded': 'mount',
  'kubelet.mountDeviceSucceeded': 'mount', 'kubelet.setUpSucceeded': 'mount',
  'kubelet.unmountVolumeStarted': 'unmount', 'kubelet.tearDownSucceeded': 'unmount',
  'kubelet.unmountDeviceStarted': 'unmount', 'kubelet.unmountDeviceSucceeded': 'unmount',
  // the kubelet's last teardown step (it forgets the volume); the detach is the controller's, later
  'kubelet.volumeDetached': 'unmount',
  'attachDetachController.attachVolumeStarted': 'attach', 'attachDetachController.attachSucceeded': 'attach',
  'attachDetachController.multiAttachUsedByPods': 'attach',
  'attachDetachController.detachVolumeStarted': 'detach', 'attachDetachController.forceDetachStarted': 'detach',
  'attachDetachController.verifiedSafeToDetach': 'detach', 'attachDetachController.detachSucceeded': 'detach',
};

describe('stages of the volume path', () => {
  it('the catalog gives each message its stage', () => {
    const got = Object.fromEntries(Object.keys(EXPECTED).map((id) => [id, catalog[id]?.stage]));
    expect(got).toEqual(EXPECTED);
  });

  it('traces and the explainer label real UnmountDevice and TearDown lines unmount, on both profiles', () => {
    const knowledge = buildKnowledge();
    for (const k8s of ['1.20', '1.30'] as const) {
      const steps = runScenario('teardown', { k8s }).steps.filter((s) => s.msg === 'kubelet.unmountDeviceStarted' || s.msg === 'kubelet.unmountDeviceSucceeded' || s.msg === 'kubelet.tearDownSucceeded');
      expect(steps.length).toBe(3);
      for (const s of steps) expect(s.stage, s.msg).toBe('unmount');
      const explained = explainText(steps.map((s) => s.log).join('\n'), knowledge).lines;
      expect(explained.map((l) => l.stage)).toEqual(['unmount', 'unmount', 'unmount']);
    }
  });

  it('words alone: an unknown driver line about UnmountDevice is an unmount line', () => {
    expect(guessStage('I1201 10:00:00.000000 1 nodeserver.go:42] UnmountDevice succeeded for volume "pvc-1"')).toBe('unmount');
    expect(guessStage('MountDevice succeeded for volume "pvc-1"')).toBe('mount');
  });

  it('words alone: a volume named in quotes, then "deleted", is a deletion; kubectl echoing its own delete is not', () => {
    expect(guessStage('I1010 15:14:21.848426       1 controller.go:1279] volume "pvc-3c1b3a5e" deleted')).toBe('delete');
    expect(guessStage('I1010 15:14:21.848426       1 controller.go:1324] volume "pvc-3c1b3a5e" deleted from database')).toBe('delete');
    expect(guessStage('persistentvolume "pvc-3c1b3a5e" deleted')).toBeNull();
  });

  it('words alone: the volume manager\'s wait for volumes "to attach or mount" is a mount\'s wait, even where a hand-wrapped piece says "list of unmounted"', () => {
    expect(guessStage('\tfor volumes to attach or mount for pod "default"/"web-0". list of unmounted ')).toBe('mount');
    expect(guessStage('Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[kube-api-access-x]: timed out waiting for the condition')).toBe('mount');
  });

  it('the PV and PVC protection controllers\' lines are bookkeeping (a finalizer added), not a step of the flow', () => {
    const knowledge = buildKnowledge();
    // (after the PV controller's provisioning lines of the same program, whose stage a line it does not place would take)
    const lines = explainText([
      'I0702 17:45:15.439132       1 pv_controller.go:974] updating PersistentVolumeClaim[default/pvc2]: bound to "pvc-23cc1ba9"',
      'I0702 17:45:15.439141       1 pv_controller.go:709] updating PersistentVolumeClaim[default/pvc2] status: set phase Bound',
      'I0702 17:45:15.443616       1 pv_protection_controller.go:169] Added protection finalizer to PV pvc-23cc1ba9',
      'I0702 17:45:15.443646       1 pvc_protection_controller.go:126] Finished processing PVC default/data (7.215073ms)',
    ].join('\n'), knowledge).lines;
    expect(lines.map((l) => l.stage)).toEqual(['provision', 'provision', 'other', 'other']);
  });

  it('the kubelet\'s lines about its own Node object are no step of a volume\'s flow, also right after a volume\'s attach lines', () => {
    const knowledge = buildKnowledge();
    const lines = explainText([
      'Jul 21 19:15:08 n1 kubelet[1628]: I0721 19:15:08.251018    1628 reconciler.go:205] operationExecutor.VerifyControllerAttachedVolume started for volume "pvc-c0" (UniqueName: "kubernetes.io/gce-pd/pvc-c0") pod "web-0" (UID: "a22e")',
      'Jul 21 19:15:08 n1 kubelet[1628]: I0721 19:15:08.253860    1628 operation_generator.go:1436] Controller attach succeeded for volume "pvc-c0" (UniqueName: "kubernetes.io/gce-pd/pvc-c0") pod "web-0" (UID: "a22e") device path: "/dev/disk/by-id/google-pvc-c0"',
      'Jul 21 19:15:08 n1 kubelet[1628]: E0721 19:15:08.337751    1628 kubelet.go:2467] node "n1" not found',
      'Jul 21 19:15:09 n1 kubelet[1628]: E0721 19:15:09.100000    1628 kubelet_node_status.go:92] Unable to register node "n1" with API server: nodes "n1" is forbidden',
      'Jul 21 19:15:09 n1 kubelet[1628]: E0721 19:15:09.200000    1628 kubelet.go:2422] "Error getting node" err="node \\"n1\\" not found"',
    ].join('\n'), knowledge).lines;
    expect(lines.map((l) => l.stage)).toEqual(['attach', 'attach', 'other', 'other', 'other']);
  });

  it('external-resizer\'s VolumeAttributesClass events are no step the stages name (a change of class is no expansion); the kubelet failing to clean a deleted pod\'s volume directories is an unmount; a bare shell command and a prompt without @ are the session, not the flow', () => {
    const knowledge = buildKnowledge();
    const lines = explainText([
      '  Warning  VolumeModifyFailed     1s    external-resizer ebs.csi.aws.com     rpc error: code = InvalidArgument desc = Could not modify volume "vol-0a1": invalid parameter',
      '  Normal   VolumeModify           5s    external-resizer ebs.csi.aws.com     external resizer is modifying volume data with vac gold',
      'Nov 28 17:55:57 n1 kubelet[37577]: E1128 17:55:57.093968   37577 kubelet.go:2596] Failed cleaning pods: [remove /var/lib/kubelet/pods/0a1b/volumes/kubernetes.io~downward-api/podinfo: device or resource busy]',
      'df -HT',
      '[ocp ]# oc apply -f snapshot1.yaml',
    ].join('\n'), knowledge).lines;
    expect(lines.map((l) => l.stage)).toEqual(['other', 'other', 'unmount', 'other', 'other']);
    expect(lines[0]!.component).toBe('external-resizer');
  });

  it('words alone: connecting an NVMe-oF target, and the systemd-run scope the kubelet mounts in, are a mount\'s work', () => {
    expect(guessStage('I0520 10:08:57.006342       1 initiator.go:478] running command: [nvme connect -t tcp -a 10.57.1.9 -s 4420 -n nqn.2023-02.io.x:lvol]')).toBe('mount');
    expect(guessStage('I0520 10:08:57.006324       1 initiator.go:487] command returned: could not add new controller: invalid arguments/configuration')).toBe('mount');
    expect(guessStage('Output: Running scope as unit run-17427.scope.')).toBe('mount');
  });

  it('what the paste shows around the logs is no step: a command glued to its prompt, the same tools run by hand, a test run\'s summary, describe\'s fields flattened, the kubelet\'s old docker runtime', () => {
    const knowledge = buildKnowledge();
    const lines = explainText([
      'Jan 10 20:02:13 h sh[1464]: E0110 20:02:13.105000    1465 kubelet_volumes.go:110] Orphaned pod "0a1b" found, but volume paths are still present on disk.',
      'Jan 10 20:02:13 h sh[1464]: I0110 20:02:13.106827    1465 docker_manager.go:2236] Determined pod ip after infra change: "nginx-2lb9p_default(0a1b)": "10.2.3.4"',
      '  Warning  FailedScheduling  102s (x279 over 6h56m)  default-scheduler  pod has unbound immediate PersistentVolumeClaims',
      '#kubectl get  --all-namespaces pvc ',
      'nvme connect -t tcp -a 10.0.2.2 -s 4426 -n nqn.2023-02.io.x:lvol:b80c',
      'VOLUME\tSnapshotCreateFailure\t\t9851527\t\t\tALARM\t\t1\tFeb 17 07:08:39 UTC 2023\tVolume (Id: 9851527 Name: snapshot-9a69) snapshot failed',
      'Ran 4 of 7227 Specs in 133.751 seconds',
      'StorageClass: local-storage',
      'Reclaim Policy: Delete',
      'Access Modes: RWO',
    ].join('\n'), knowledge).lines;
    expect(lines.map((l) => l.stage)).toEqual(['unmount', 'other', 'provision', 'other', 'other', 'snapshot', 'other', 'other', 'other', 'other']);
  });

  it('a piece of a wrapped compact JSON request continues its record; a pretty-printed field on its own line is the paste', () => {
    const knowledge = buildKnowledge();
    const lines = explainText([
      'I0701 16:11:29.322344       1 server.go:117] GRPC call: /csi.v1.Node/NodeExpandVolume',
      'I0701 16:11:29.322360       1 server.go:118] GRPC request: {"capacity_range":{"required_bytes":4294967296},"staging_target_path":"/var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/staging/pv',
      '"access_mode":{"mode":1}},"volume_id":"49682ea9","volume_path":"/var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/publish/pvc-e42"}',
    ].join('\n'), knowledge).lines;
    expect(lines.map((l) => [l.kind, l.stage])).toEqual([['log', 'resize'], ['log', 'resize'], ['continuation', 'resize']]);
    expect(explainText('"pod_name": "csi-attacher-0",', knowledge).lines[0]!.kind).toBe('decoration');
  });

  it('words alone: an orphaned volume torn down, an iSCSI logout and its record removed, an RBD image removed, a claim waited on to grow', () => {
    expect(guessStage('W0224 03:34:33.651446   11741 kubelet.go:1595] Orphaned volume "ba96/pv-gitlab-logs" found, tearing down volume')).toBe('unmount');
    expect(guessStage('time="2018-04-24T15:49:54Z" level=debug msg=">>>> osutils.execCommand." args="[-m node -T iqn.2010-01.com.x:vol-1 --portal 10.0.0.9:3260 -u]" command=iscsiadm')).toBe('unmount');
    expect(guessStage('time="2018-04-24T15:49:54Z" level=debug msg="<<<< osutils.execCommand." command=iscsiadm error="exit status 21" output="iscsiadm: No matching sessions found"')).toBe('unmount');
    expect(guessStage('time="2018-04-24T15:49:54Z" level=debug msg="Error during iSCSI logout." error="exit status 21"')).toBe('unmount');
    // (a login is still the staging's)
    expect(guessStage('iscsiadm -m node -T iqn.2010-01.com.x:vol-1 --portal 10.0.0.9:3260 --login')).toBe('mount');
    expect(guessStage('2019-02-25 16:07:55.749071 7f05427fc700 -1 librbd::image::RemoveRequest: 0x5616 check_image_snaps: image has snapshots - not removing')).toBe('delete');
    expect(guessStage("rbd: image has snapshots - these must be deleted with 'rbd snap purge' before the image can be removed.")).toBe('delete');
    expect(guessStage('Removing image: 0% complete...failed.')).toBe('delete');
    expect(guessStage('time="2018-04-24T15:49:54Z" level=debug msg=">>>> osutils.ISCSIDisableDelete" target="&{10.0.0.9:3260 iqn.2010-01.com.x:vol-1}"')).toBe('unmount');
    expect(guessStage('Waiting up to one minute for Minio PVC size to change from 10Gi to 20Gi')).toBe('resize');
  });

  it('a session\'s own lines: a prompt of any shape before kubectl, kubectl\'s "No resources found", a finalizer listed in an object', () => {
    const knowledge = buildKnowledge();
    const lines = explainText([
      'I0101 00:00:00.000000       1 utils.go:195] ID: 20 GRPC call: /csi.v1.Controller/CreateSnapshot',
      'No resources found in default namespace.',
      '[🎩︎]mrajanna@fedora cephfs $]kubectl get volumesnapshot',
      '  - external-provisioner.volume.kubernetes.io/finalizer',
    ].join('\n'), knowledge).lines;
    expect(lines.map((l) => l.stage)).toEqual(['snapshot', 'other', 'other', 'other']);
  });

  it('words alone: a volume unbound from a pod\'s path is an unmount (ceph-csi NodeUnpublishVolume), not a mount', () => {
    expect(guessStage('I0105 10:00:00.000000       1 nodeserver.go:250] ID: 50 Req-ID: 0001-abc cephfs: successfully unbinded volume 0001-abc from /var/lib/kubelet/pods/5ca2/volumes/kubernetes.io~csi/pvc-1a2b/mount')).toBe('unmount');
  });
});
