/**
 * The log explainer: every line of every scenario's trace lands on its stage and component (100%),
 * real-world prefixes and tables are read, bad input gets a clear refusal, and any string gives one
 * result per line without an exception.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildKnowledge, decodeInput, explainText, ExplainInputError, runScenario, SCENARIOS, splitLines, type Knowledge,
} from '../../src/machines/index.ts';

const knowledge: Knowledge = buildKnowledge();
/** The stage the explainer gives each of these lines, pasted together. */
const stagesOf = (lines: string[]) => explainText(lines.join('\n'), knowledge).lines.map((l) => l.stage);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 2000);

describe('traces of every scenario', () => {
  for (const s of SCENARIOS) {
    for (const k8s of ['1.20', '1.30'] as const) {
      it(`${s.id} ${k8s}: every log line gets the step's stage and component, and a catalog match`, () => {
        const steps = runScenario(s.id, { k8s }).steps.filter((st) => st.log);
        const r = explainText(steps.map((st) => st.log).join('\n'), knowledge);
        expect(r.lines.length).toBe(steps.length);
        const wrong = steps.flatMap((st, i) => {
          const e = r.lines[i]!;
          return e.stage === st.stage && e.component === st.component && e.match === 'catalog' ? [] : [`${i + 1}: want ${st.stage}/${st.component} got ${e.stage}/${e.component}/${e.match}: ${st.log!.slice(0, 120)}`];
        });
        expect(wrong).toEqual([]);
      });
    }
  }
});

describe('our flow\'s step for a line', () => {
  it('a message our flows print in several stages links a line to a step of its own stage\'s work (the kubelet\'s failed MountDevice to a mount failure, not to the first flow that printed the message)', () => {
    const steps = new Map<string, { stage?: string; msg?: string }>();
    const run = (id: string, k8s: '1.20' | '1.30') => {
      const key = `${id}.${k8s}`;
      if (!steps.has(key)) for (const st of runScenario(id, { k8s, recordObjects: false }).steps) steps.set(`${key}#${st.i}`, st);
    };
    const several = knowledge.messages.filter((m) => m.byStage);
    expect(several.map((m) => m.id)).toEqual(expect.arrayContaining(['kubelet.operationFailed', 'attachDetachController.operationFailed', 'externalAttacher.processingVA']));
    for (const m of several) {
      for (const [stage, refs] of Object.entries(m.byStage!)) {
        for (const ref of Object.values(refs)) {
          run(ref.scenario, ref.k8s);
          const st = steps.get(`${ref.scenario}.${ref.k8s}#${ref.step}`)!;
          expect([m.id, stage, st.msg, st.stage]).toEqual([m.id, stage, m.id, stage]);
        }
      }
    }
    const failed = runScenario('mount-failure', { k8s: '1.30' }).steps.find((st) => st.msg === 'kubelet.operationFailed' && /MountVolume\.MountDevice failed/.test(st.log ?? ''))!;
    const line = explainText(failed.log!, knowledge).lines[0]!;
    expect([line.stage, line.step?.scenario, line.step?.k8s]).toEqual(['mount', 'mount-failure', '1.30']);
    expect(knowledge.messages.find((m) => m.id === 'kubelet.operationFailed')!.step!.scenario).not.toBe('mount-failure');
  });
});

describe('reading what people paste', () => {
  const ex = (text: string) => explainText(text, knowledge).lines;
  const kubelet = 'I0111 14:58:08.573794   21944 operation_generator.go:782] UnmountVolume.TearDown succeeded for volume "kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-XXX" (OuterVolumeSpecName: "XXX-pvc") pod "5ca2" (UID: "5ca2"). InnerVolumeSpecName "pvc-XXX". PluginName "kubernetes.io/csi", VolumeGidValue ""';

  it('general rules from the second held-out corpus: JSON records stand alone, Markdown quotes, mount-utils tails, driver start-up banners, the kubelet attacher\'s own step names', () => {
    const stages = (text: string) => ex(text).map((l) => l.stage);
    // each JSON logger record is a record of its own, however long the one before (they were glued into one group)
    expect(stages([
      `{"level":"info","msg":"GetPluginInfo called","padding":"${'x'.repeat(150)}"}`,
      '{"GRPC.call":"/csi.v1.Controller/CreateVolume","GRPC.request":"name:\\"pvc-1\\"","level":"info","msg":"GRPC response: volume:<> "}',
      '{"GRPC.call":"/csi.v1.Controller/ControllerPublishVolume","level":"info","msg":"GRPC response: "}',
    ].join('\n'))).toEqual(['other', 'provision', 'attach']);
    // a socket path alone is no registration: a driver listening on its csi.sock, a sidecar still connecting to it
    // (each its own paste: in a paste with the registrar's lines, unknown lines take the registration's stage)
    expect(stages('I0408 16:33:26.138732       1 grpc.go:190] Listening for connections on address: &net.UnixAddr{Name:"//plugin/csi.sock", Net:"unix"}')).toEqual(['other']);
    expect(stages('W0601 02:25:21.298803    4239 connection.go:173] Still connecting to unix:///csi/csi.sock')).toEqual(['other']);
    // a driver's version banner is its start-up, whatever tool it names ("mount-s3 version"), and the line after it too
    expect(stages([
      'I0718 16:22:01.176122       1 driver.go:59] Driver version: 1.7.0, Git commit: 53b62cb27036138b46e51f34ddef454fd0f89c6c, build date: 2024-06-18T11:10:59Z, nodeID: ip-10-2-126-165, mount-s3 version: 1.7.2',
      'I0718 16:22:01.177147       1 driver.go:79] Found AWS_WEB_IDENTITY_TOKEN_FILE, syncing token',
    ].join('\n'))).toEqual(['other', 'other']);
    // a node plugin finding the attached disk's device file starts the staging (logrus text, each its own paste)
    expect(stages('time="2017-11-02T10:00:00Z" level=info msg="device file found" device="/dev/disk/by-path/pci-0000:03:00.0-scsi-0:0:2:0"')).toEqual(['mount']);
    expect(stages('I1102 10:00:00.000000       1 node.go:120] found device /dev/nvme1n1 for volume vol-0abc')).toEqual(['mount']);
    // a quoted paste reads as the log under the quote marker
    expect(ex('>   Warning  FailedAttachVolume  2m  attachdetach-controller  AttachVolume.Attach failed for volume "pvc-1" : timed out')[0]!.stage).toBe('attach');
    // mount-utils' multi-line error continues its first line, even with describe-like spacing
    expect(stages([
      'E0101 00:00:00.000000       1 mount_linux.go:230] Mount failed: exit status 32',
      'Mounting command: mount',
      'Mounting arguments:  -o bind /src /var/lib/kubelet/pods/u/volumes/kubernetes.io~csi/pv/mount',
      'Output: mount: special device /src does not exist',
    ].join('\n'))).toEqual(['mount', 'mount', 'mount', 'mount']);
    expect(stages([
      'time="2023-06-01T02:26:08Z" level=info msg="Enabling node service capability: STAGE_UNSTAGE_VOLUME"',
      'I0811 10:38:16.374652       1 snapshot_controller_base.go:115] Starting CSI snapshotter',
      'time="2018-07-26T14:15:29Z" level=info msg="controller publish volume called" method=controller_publish_volume',
      'E1008 09:50:55.858905   11703 csi_attacher.go:337] kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name x not found',
      'I0701 06:06:29.120800       1 controller.go:1523] delete "pvc-1": failed to remove finalizer',
    ].join('\n'))).toEqual(['other', 'other', 'attach', 'mount', 'delete']);
    // an event message pasted bare, its operation name cut short
    expect(stages('MountVolume. for volume "pvc-1" : Expander.NodeExpand found CSI plugin kubernetes.io/csi/x to not support node expansion')).toEqual(['resize']);
    // kubectl describe's annotation rows and get tables' headers are no log lines
    expect(stages([
      'Annotations:   pv.kubernetes.io/bind-completed: yes',
      '               volume.kubernetes.io/selected-node: node-1',
      'NAME      ATTACHER          PV       NODE     ATTACHED   AGE',
    ].join('\n'))).toEqual(['other', 'other', 'other']);
  });

  it('rules from the third and fourth held-out corpora: a stamp and a tab before klog, an older full stop, protobuf text payloads, an Event\'s operation', () => {
    const st = (text: string) => ex(text).map((l) => l.stage);
    // a log viewer's own stamp and a tab before the klog header: the header is still read (file:line, catalog)
    const tabbed = ex('2024-02-01T10:00:01+01:00\tI0201 09:00:01.000001       1 csi_handler.go:740] Found NodeID node-a in CSINode node-a')[0]!;
    expect(tabbed.match).toBe('catalog');
    expect(tabbed.messageId).toBe('externalAttacher.foundNodeID');
    // node-driver-registrar v1.0 ended its sentence with a full stop
    const v1 = ex('I0101 00:00:01.000000       1 main.go:123] Calling CSI driver to discover driver name.')[0]!;
    expect([v1.match, v1.stage]).toEqual(['catalog', 'register']);
    // a driver that logs its request with %v prints protobuf's text format: the fields say which call
    expect(st('I0101 00:00:01.000000       1 utils.go:50] GRPC request: name:"pvc-1" capacity_range:<required_bytes:1073741824 > volume_capabilities:<mount:<fs_type:"ext4" > access_mode:<mode:SINGLE_NODE_WRITER > >')).toEqual(['provision']);
    expect(st('I0101 00:00:01.000000       1 server.go:20] create volume req: name:"pvc-1" capacity_range:{required_bytes:1073741824}')).toEqual(['provision']);
    // ControllerPublishVolume with readonly false (left out of the JSON), and the handshake's answers
    expect(st('I0101 00:00:01.000000       1 connection.go:183] GRPC request: {"node_id":"n1","volume_capability":{"AccessType":{"Mount":{}},"access_mode":{"mode":1}},"volume_id":"v1"}')).toEqual(['attach']);
    expect(st('I0101 00:00:01.000000       1 connection.go:183] GRPC request: {"node_id":"n1","volume_id":"v1"}')).toEqual(['detach']);
    expect(st('I0101 00:00:01.000000       1 utils.go:60] GRPC response: capabilities:<rpc:<type:CREATE_DELETE_SNAPSHOT > >')).toEqual(['other']);
    // FailedMount also reports the expansion a mount runs: the operation the message names decides
    expect(st('  Warning  FailedMount  12s (x3 over 40s)  kubelet  MountVolume.Setup failed while expanding volume for volume "pvc-1" : Expander.NodeExpand failed')).toEqual(['resize']);
    expect(st('  Warning  FailedMount  12s (x3 over 40s)  kubelet  MountVolume.MountDevice failed for volume "pvc-1" : rpc error: code = Internal')).toEqual(['mount']);
    expect(st('I0101 00:00:01.000000    1234 operation_generator.go:808] MountVolume.resizeFileSystem succeeded for volume "pvc-1"')).toEqual(['resize']);
    // the provisioner library's per-claim line, whatever its class is called
    expect(st('I0101 00:00:01.000000       1 controller.go:1293] provision "ns/data" class "fast-multiattach": persistentvolume "pvc-1" already exists, skipping')).toEqual(['provision']);
  });

  it('records and the lines that continue them: other loggers\' stamps, a message posted over several lines, what kubectl prints of objects', () => {
    const st = (text: string) => ex(text).map((l) => l.stage);
    // Python's logging stamp makes a record; its traceback's indented lines continue it
    expect(st([
      '2020-01-01 10:00:00 default ERROR mydriver.node [req-1] !! GRPC NodeStageVolume failed with: backend unavailable',
      '    Traceback (most recent call last):',
      '      File "/app/node.py", line 10, in stage',
      '        vol = self._get(request.volume_id)',
    ].join('\n'))).toEqual(['mount', 'mount', 'mount', 'mount']);
    // Go's log stamp too: each such line is a record of its own, not a piece of the one above
    const gologs = ex(['2022/01/01 10:00:00 NodeUnpublishVolume request for volume v1 on /var/lib/kubelet/pods/p/volumes/kubernetes.io~csi/pv1/mount, target path removed', '2022/01/01 10:00:01 NodeGetCapabilities request'].join('\n'));
    expect(gologs.map((l) => l.kind)).toEqual(['log', 'log']);
    expect(gologs[1]!.stage).toBe('other');
    // a message posted without headers over lines: the lines below that say nothing themselves are more of it
    expect(st([
      'MountVolume.MountDevice failed for volume "pvc-1" : rpc error: code = Internal desc = could not find the disk',
      'For disk pvc-1 the device path is /dev/nvme1n1',
      'found serial number vol-0',
      '',
      'For disk pvc-2 the device path is /dev/nvme2n1',
    ].join('\n'))).toEqual(['mount', 'mount', 'mount', 'other', 'other']);
    // … but not a table's rows or an object's fields printed after it
    expect(st([
      'MountVolume.SetUp failed for volume "pvc-1" : rpc error: code = Internal desc = mount failed',
      'data-0   Bound    pvc-1   10Gi   RWO   fast   5m',
      '    type: FileSystemResizePending',
      '      --kubelet-registration-path=/var/lib/kubelet/plugins/x/csi.sock',
    ].join('\n'))).toEqual(['mount', 'other', 'other', 'other']);
    expect(ex('    type: FileSystemResizePending')[0]!.kind).toBe('decoration');
    // a quote marker or a code fence the post glued to an operation's message
    expect(st('> Operation for "{volumeName:kubernetes.io/csi/x^v1 podName:p nodeName:}" failed. No retries permitted until 2024-01-01 10:00:00 +0000 UTC m=+1 (durationBeforeRetry 2m2s). Error: UnmountVolume.TearDown failed for volume "v1"')).toEqual(['unmount']);
    expect(ex('```  Warning  FailedAttachVolume  25s  attachdetach-controller  AttachVolume.Attach failed for volume "pvc-1" : timed out')[0]!.kind).toBe('event');
    // the kubelet's Events about a pod's containers name images, "csi-attacher" among them: no volume's step
    expect(st('  Normal   Pulled   9m (x3 over 9m)   kubelet  Container image "registry.k8s.io/sig-storage/csi-attacher:v4.6.1" already present on machine')).toEqual(['other']);
    // (the scheduler's assignment too)
    expect(st('Successfully assigned default/web-0 to node-1')).toEqual(['other']);
  });

  it('the rows under a `kubectl get` header list objects, whatever their words (columns collapsed to single spaces too); an events table\'s rows are Events', () => {
    const st = (text: string) => ex(text).map((l) => l.stage);
    // a StorageClass row names a provisioner and WaitForFirstConsumer, words that alone would make a guess
    expect(st('managed-csi disk.csi.azure.com Delete WaitForFirstConsumer true 14m')).not.toEqual(['other']);
    expect(st([
      '$ kubectl get storageclasses',
      'NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE',
      'managed-csi disk.csi.azure.com Delete WaitForFirstConsumer true 14m',
      'azurefile-csi file.csi.azure.com Delete Immediate true 14m',
      '',
      'managed-csi disk.csi.azure.com Delete WaitForFirstConsumer true 14m',
    ].join('\n'))).toEqual(['other', 'other', 'other', 'other', 'other', st('managed-csi disk.csi.azure.com Delete WaitForFirstConsumer true 14m')[0]]);
    // a second table right under the first (no blank line between): its rows are rows too
    expect(st([
      'NAME READYTOUSE SOURCEPVC SOURCESNAPSHOTCONTENT RESTORESIZE SNAPSHOTCLASS SNAPSHOTCONTENT CREATIONTIME AGE',
      'snap-1 true data 10Gi csi-snapclass snapcontent-1 2m 2m',
      'NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE',
      'managed-csi disk.csi.azure.com Delete WaitForFirstConsumer true 14m',
      'azurefile-csi file.csi.azure.com Delete Immediate true 14m',
    ].join('\n'))).toEqual(['other', 'other', 'other', 'other', 'other']);
    // an events table's rows keep their Events' stages
    expect(st([
      'LAST SEEN   TYPE      REASON               OBJECT        MESSAGE',
      '2m          Warning   FailedAttachVolume   pod/web-0     AttachVolume.Attach failed for volume "pvc-1" : rpc error: code = Internal desc = quota',
    ].join('\n'))[1]).toBe('attach');
  });

  it('what the whole paste says: node-driver-registrar\'s own lines, one section per "kubectl logs" command, start-up lines that belong to no operation', () => {
    const st = (text: string) => ex(text).map((l) => l.stage);
    // a registrar line known from its catalog makes the shared csi-lib-utils lines of its paste registration
    expect(st([
      'I0101 00:00:01.000000       1 main.go:166] Version: v2.5.0',
      'I0101 00:00:01.000100       1 connection.go:154] Connecting to unix:///csi/csi.sock',
      'I0101 00:00:02.000000       1 main.go:120] Attempting to open a gRPC connection with: "/csi/csi.sock"',
    ].join('\n'))).toEqual(['register', 'register', 'register']);
    // after another container's logs command, its lines are not the registrar's
    expect(st([
      'I0101 00:00:02.000000       1 main.go:120] Attempting to open a gRPC connection with: "/csi/csi.sock"',
      '$ kubectl logs csi-node-abc -n kube-system my-driver',
      'I0101 00:00:03.000000       1 driver.go:56] Driver: my.csi.example.com version: 1.0.0',
    ].join('\n'))).toEqual(['register', 'other', 'other']);
    // the command naming the registrar's container tells whose lines follow, even with no marker line among them
    expect(st([
      '$ kubectl logs csi-node-abc -n kube-system node-driver-registrar',
      'I0101 00:00:01.000000       1 main.go:166] Version: v2.5.0',
    ].join('\n'))).toEqual(['other', 'register']);
    // a start-up line is 'other' by its words: it does not take the operation its program was doing
    expect(st([
      'I0101 00:00:01.000000       1 csi_handler.go:251] Attaching "csi-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"',
      'I0101 00:00:01.100000       1 clone_controller.go:66] Starting CloningProtection controller',
      'I0101 00:00:01.200000       1 controller.go:873] "Started provisioner controller" component="x"',
    ].join('\n'))).toEqual(['attach', 'other', 'other']);
  });

  it('csi-attacher\'s PV queue takes every updated PersistentVolume: its first lines are a delete only when the next line about that PV says so; "finished processing" closes the operation before it', () => {
    const st = (text: string) => ex(text).map((l) => l.stage);
    const pv = 'pvc-11111111-2222-3333-4444-555555555555';
    expect(st([
      `I0101 00:00:01.000000       1 controller.go:232] Started PV processing "${pv}"`,
      `I0101 00:00:01.000100       1 csi_handler.go:617] CSIHandler: processing PV "${pv}"`,
      `I0101 00:00:01.000200       1 csi_handler.go:621] CSIHandler: processing PV "${pv}": no deletion timestamp, ignoring`,
    ].join('\n'))).toEqual(['other', 'other', 'other']);
    expect(st([
      `I0101 00:00:01.000000       1 controller.go:232] Started PV processing "${pv}"`,
      `I0101 00:00:01.000100       1 csi_handler.go:617] CSIHandler: processing PV "${pv}"`,
      `I0101 00:00:01.000300       1 csi_handler.go:637] CSIHandler: processing PV "${pv}": no finalizer, ignoring`,
    ].join('\n'))).toEqual(['delete', 'delete', 'delete']);
    const va = `csi-${'ab'.repeat(32)}`;
    expect(st([
      `I0101 00:00:01.000000       1 csi_handler.go:572] Detached "${va}"`,
      `I0101 00:00:01.000100       1 csi_handler.go:232] CSIHandler: finished processing "${va}"`,
    ].join('\n'))).toEqual(['detach', 'detach']);
  });

  it('goroutinemap.go:150 is the kubelet\'s plugin registration for a socket path, the PV controller\'s delete or provision for "delete-…[uid]" / "provision-…[uid]"', () => {
    const until = 'No retries permitted until 2024-06-26 13:00:15.031690313 +0000 UTC m=+533249.887927013 (durationBeforeRetry 500ms)';
    const lines = ex([
      `E0626 13:00:14.531745       1 goroutinemap.go:150] Operation for "delete-pv-jsffwiqcc[7b8860d9-3424-400b-9158-099677c83dfb]" failed. ${until}. Error: error getting deleter volume plugin for volume "pv-jsffwiqcc": no deletable volume plugin matched`,
      `E0626 13:00:14.531745       1 goroutinemap.go:150] Operation for "provision-default/data[7b8860d9-3424-400b-9158-099677c83dfb]" failed. ${until}. Error: x`,
      `E0514 19:50:28.985525    5195 goroutinemap.go:150] Operation for "/var/lib/kubelet/plugins_registry/csi.vsphere.vmware.com/csi.sock" failed. ${until}. Error: "RegisterPlugin error -- failed to get plugin info using RPC GetInfo at socket /var/lib/kubelet/plugins_registry/csi.vsphere.vmware.com/csi.sock, err: rpc error: code = Unimplemented desc = unknown service pluginregistration.Registration"`,
    ].join('\n'));
    expect(lines.map((l) => [l.messageId, l.stage, l.component])).toEqual([
      ['pvController.deleteOperationFailed', 'delete', 'pv-controller'],
      ['pvController.provisionOperationFailed', 'provision', 'pv-controller'],
      ['kubelet.registerPluginFailed', 'register', 'kubelet'],
    ]);
  });

  it('a structured line at its own file:line is its message whatever key/value pairs the logger carried (csi-attacher with leader election has no driver=)', () => {
    const lines = ex([
      'I0514 09:30:01.000000       1 csi_handler.go:273] "Attached" VolumeAttachment="csi-abc"',
      'I0514 09:30:01.000100       1 csi_handler.go:273] "Attached" driver="ebs.csi.aws.com" VolumeAttachment="csi-abc"',
      'I0514 09:30:01.000200       1 controller.go:129] "Starting CSI attacher"',
    ].join('\n'));
    expect(lines.map((l) => [l.messageId, l.match])).toEqual([
      ['externalAttacher.attached', 'catalog'], ['externalAttacher.attached', 'catalog'], ['externalAttacher.starting', 'catalog']]);
    // the pairs that are there still fill the explanation
    expect(lines[0]!.explanation).toContain('csi-abc');
  });

  it('csi-attacher\'s first lines about a VolumeAttachment take the operation that follows for it; a new sync of it starts over', () => {
    const va = `csi-${'a'.repeat(64)}`;
    const at = (t: string, f: string, text: string) => `I0805 09:13:${t}       1 ${f}] ${text}`;
    const lines = ex([
      at('14.063725', 'controller.go:208', `Started VA processing "${va}"`),
      at('14.063757', 'csi_handler.go:218', `CSIHandler: processing VA "${va}"`),
      at('14.063800', 'csi_handler.go:276', `Starting detach operation for "${va}"`),
      at('20.100000', 'controller.go:208', `Started VA processing "${va}"`),
      at('20.100100', 'csi_handler.go:218', `CSIHandler: processing VA "${va}"`),
      at('20.100200', 'csi_handler.go:258', `Starting attach operation for "${va}"`),
    ].join('\n'));
    expect(lines.map((l) => l.stage)).toEqual(['detach', 'detach', 'detach', 'attach', 'attach', 'attach']);
  });


  it('csi-attacher\'s sync of a VolumeAttachment that is attached already runs nothing: its lines are no attach; nor is a sync the paste shows no more of', () => {
    const va = `csi-${'b'.repeat(64)}`;
    const other = `csi-${'c'.repeat(64)}`;
    const at = (t: string, f: string, text: string) => `I0910 23:44:${t}       1 ${f}] ${text}`;
    const lines = ex([
      at('59.611282', 'controller.go:167', `Started VA processing "${va}"`),
      at('59.611311', 'csi_handler.go:76', `CSIHandler: processing VA "${va}"`),
      at('59.611327', 'csi_handler.go:98', `"${va}" is already attached`),
      at('59.611342', 'csi_handler.go:92', `CSIHandler: finished processing "${va}"`),
      at('59.700000', 'controller.go:167', `Started VA processing "${other}"`),
    ].join('\n'));
    expect(lines.map((l) => l.stage)).toEqual(['other', 'other', 'other', 'other', 'other']);
    // (1.30's structured wording alike; an attach that follows in the paste still makes the sync's lines an attach)
    const structured = ex([
      `I0910 23:44:59.611282       1 controller.go:213] "Started VolumeAttachment processing" VolumeAttachment="${va}"`,
      `I0910 23:44:59.611327       1 csi_handler.go:256] "VolumeAttachment is already attached" VolumeAttachment="${va}"`,
      `I0910 23:44:59.700000       1 controller.go:213] "Started VolumeAttachment processing" VolumeAttachment="${other}"`,
      `I0910 23:44:59.700100       1 csi_handler.go:261] "Attaching" VolumeAttachment="${other}"`,
    ].join('\n'));
    expect(structured.map((l) => l.stage)).toEqual(['other', 'other', 'attach', 'attach']);
  });
  it('gRPC\'s own resolver and balancer lines are plumbing, and a driver\'s start-up ends the operation its earlier lines were about', () => {
    const grpc = ex('I0208 09:32:59.559964 3212256 balancer_conn_wrappers.go:78] pickfirstBalancer: HandleSubConnStateChange: 0xc003effaf0, {READY <nil>}, /var/lib/kubelet/plugins/csi.vsphere.vmware.com/csi.sock');
    expect(grpc[0]!.stage).toBe('other');
    const restart = ex([
      'I0831 23:36:05.100000       1 node.go:300] NodeExpandVolume: called with args {VolumeId:vol-1}',
      'I0831 23:36:05.256149       1 driver.go:73] Driver: ebs.csi.aws.com Version: v1.11.2',
      'I0831 23:36:05.256183       1 node.go:96] retrieving node info from metadata service',
    ].join('\n'));
    expect(restart.map((l) => l.stage)).toEqual(['resize', 'other', 'other']);
  });

  it('reads "ISO-time LEVEL message" lines (zap console, Rust tracing) as log records, and a multi-line command output as one record', () => {
    const [zap] = ex('2021-04-01T03:15:10.956Z DEBUG common/util.go:114 NodeStageVolume: staging volume');
    expect([zap!.kind, zap!.time, zap!.host]).toEqual(['log', '2021-04-01T03:15:10.956Z', null]);
    const [rust, at] = ex('  2024-05-10T12:42:11.235052Z  INFO csi_node::node: Volume 6898e456 unstaged\n    at control-plane/csi-driver/src/bin/node/node.rs:839');
    expect([rust!.kind, rust!.time, rust!.stage]).toEqual(['log', '2024-05-10T12:42:11.235052Z', 'unmount']);
    expect([at!.kind, at!.stage]).toEqual(['continuation', 'unmount']);
    const fsck = ex([
      'I1123 21:01:36.275235       1 mount_linux.go:287] `fsck` error fsck from util-linux 2.33.1',
      'fsck.ext2: Bad magic number in super-block while trying to open /dev/xvdba',
      'The superblock could not be read or does not describe a valid ext2/ext3/ext4',
      'filesystem.  If the device is valid and it really contains an ext2/ext3/ext4',
    ].join('\n'));
    expect(fsck.slice(1).map((l) => [l.kind, l.continues])).toEqual([['continuation', 1], ['continuation', 1], ['continuation', 1]]);
  });

  it('a driver\'s Identity calls belong to the plugin whose Node or Controller calls sit nearest (a node container\'s paste, a controller\'s)', () => {
    const grpc = (t: string, n: number, text: string) => `I0514 09:30:${t}       1 utils.go:${n}] ${text}`;
    const identity = [grpc('25.000352', 111, 'GRPC call: /csi.v1.Identity/GetPluginInfo'), grpc('25.000361', 112, 'GRPC request: {}'), grpc('25.001354', 118, 'GRPC response: {"name":"nfs.csi.k8s.io","vendor_version":"v4.13.4"}')];
    const node = [...identity, grpc('25.003166', 111, 'GRPC call: /csi.v1.Node/NodeGetInfo'), grpc('25.003192', 112, 'GRPC request: {}')];
    expect(ex(node.join('\n')).map((l) => l.component)).toEqual(Array(5).fill('csi-node-plugin'));
    const controller = [...identity, grpc('26.000100', 111, 'GRPC call: /csi.v1.Controller/CreateVolume'), grpc('26.000110', 112, 'GRPC request: {"name":"pvc-1"}')];
    expect(ex(controller.join('\n')).map((l) => l.component)).toEqual(Array(5).fill('csi-controller-plugin'));
  });

  it('a line without its klog header still names its values in the explanation, and every summary reads without placeholders', () => {
    const bare = kubelet.slice(kubelet.indexOf('] ') + 2);
    const [e] = ex(bare);
    expect(e!.messageId).toBe('kubelet.tearDownSucceeded');
    expect(e!.explanation).toBe('NodeUnpublishVolume succeeded: volume pvc-XXX is unmounted from pod 5ca2.');
    // in an event, the inner log message it quotes fills its summary too
    const [ev] = ex('  Warning  FailedMount  10s  kubelet  MountVolume.WaitForAttach failed for volume "pvc-1" : volume attachment is being deleted');
    expect(ev!.explanation).not.toMatch(/\b(volume|pod|node) …/);
    for (const l of ex(bare + '\n' + kubelet)) expect(l.explanation).not.toMatch(/\b(volume|pod) …/);
  });

  it('strips journald prefixes of kubelet, k3s and kubenswrapper, with any month name', () => {
    for (const prefix of ['Jan 11 14:58:08 VM-61-164-centos kubelet[21944]: ', 'Jan 11 14:58:08 node1 k3s[812]: ', 'janv. 11 14:58:08 worker-0 kubenswrapper[2301]: ', '1月 11 14:58:08 host kubelet[1]: ', '2023-01-11T14:58:08+0800 host kubelet[1]: ']) {
      const [l] = ex(prefix + kubelet);
      expect([l!.component, l!.stage, l!.match, l!.severity], prefix).toEqual(['kubelet', 'unmount', 'catalog', 'I']);
      expect(l!.host).not.toBeNull();
    }
  });

  it('strips CRI, kubectl --prefix and docker json-file wrappers', () => {
    const attacher = 'I0111 06:58:14.257783       1 csi_handler.go:267] Starting detach operation for "csi-3a36"';
    for (const line of [`2023-01-11T06:58:14.257801234Z stderr F ${attacher}`, `[pod/csi-cbs-controller-0/csi-attacher] ${attacher}`, JSON.stringify({ log: attacher + '\n', stream: 'stderr', time: '2023-01-11T06:58:14Z' })]) {
      const [l] = ex(line);
      expect([l!.component, l!.stage, l!.match], line).toEqual(['external-attacher', 'detach', 'catalog']);
    }
  });

  it('reads a kubectl describe Events table: header rows are decoration, rows are events with their stage', () => {
    const lines = ex([
      'Events:',
      '  Type     Reason              Age                From                     Message',
      '  ----     ------              ----               ----                     -------',
      '  Normal   Scheduled           2m                 default-scheduler        Successfully assigned default/web-0 to node-2',
      '  Warning  FailedAttachVolume  2m                 attachdetach-controller  Multi-Attach error for volume "pvc-1" Volume is already exclusively attached to one node and can\'t be attached to another',
      '  Warning  FailedMount         13s (x2 over 59s)  kubelet                  Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: timed out waiting for the condition',
    ].join('\n'));
    expect(lines.map((l) => l.kind)).toEqual(['decoration', 'decoration', 'decoration', 'event', 'event', 'event']);
    expect(lines.slice(3).map((l) => [l.stage, l.component, l.severity])).toEqual([
      ['other', 'kube-scheduler', 'I'], ['attach', 'attach-detach-controller', 'W'], ['mount', 'kubelet', 'W'],
    ]);
    expect(lines[4]!.cause).toMatch(/Multi-Attach|ReadWriteOnce/);
  });

  it('joins lines wrapped by a terminal to the record they belong to', () => {
    const long = 'E0514 09:30:51.309474    1432 nestedpendingoperations.go:348] Operation for "{volumeName:kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-7bfqsft5 podName: nodeName:}" failed. No retries perm';
    const full = long + 'itted until 2024-05-14 09:30:51.809469011 +0000 UTC m=+86481.809469011 (durationBeforeRetry 500ms). Error: Volume not attached';
    // a terminal 100 columns wide cuts the record into 100-character pieces
    const lines = ex([full.slice(0, 100), full.slice(100, 200), full.slice(200), 'I0514 09:30:52.000000    1432 x.go:1] next record'].join('\n'));
    expect(lines[0]!.kind).toBe('log');
    expect(lines[1]!.kind).toBe('continuation');
    expect(lines[1]!.continues).toBe(1);
    expect([lines[2]!.kind, lines[2]!.continues, lines[2]!.stage]).toEqual(['continuation', 1, lines[0]!.stage]);
    expect(lines[3]!.kind).toBe('log');
  });

  it('a line from another version (other file:line) is still recognised by its text', () => {
    const [l] = ex('I0111 06:58:14.257783       1 csi_handler.go:999] Starting detach operation for "csi-3a36"');
    expect([l!.match, l!.stage]).toEqual(['catalog', 'detach']);
  });

  it('a short message of the same file at another release\'s line is known when the whole message is it (external-attacher\'s "Attached %q": csi_handler.go:128 in v1.2, 249 in v2.2, 264 in v4.5)', () => {
    const [v1, v4, detached, more] = ex([
      'I0518 10:02:02.000000       1 csi_handler.go:128] Attached "csi-abc"',
      'I0518 10:02:02.000000       1 csi_handler.go:264] Attached "csi-abc"',
      'I0518 10:02:02.000000       1 csi_handler.go:581] Detached "csi-abc"',
      'I0518 10:02:02.000000       1 csi_handler.go:264] Attached "csi-abc" to node n1, retrying',
    ].join('\n'));
    for (const l of [v1!, v4!]) expect([l.match, l.component, l.stage, l.messageId]).toEqual(['catalog', 'external-attacher', 'attach', 'externalAttacher.attached']);
    expect([detached!.match, detached!.stage]).toEqual(['catalog', 'detach']);
    // more words than the template: not that message
    expect(more!.match).toBe('guess');
  });

  it('what makes an unknown line what it is: the operation it belongs to, not the words it happens to contain', () => {
    const stageOf = (line: string) => explainText(line, knowledge).lines[0]!.stage;
    // the kubelet rebuilding its state after a restart leads to unmounting what no pod wants
    expect(stageOf('E1128 13:51:01.932744    3227 reconciler.go:376] Could not construct volume information: impossible to reconstruct')).toBe('unmount');
    // (also when the post cut the syslog host and "kernel:" before the subsystem: "sd" is no host)
    expect(explainText('Sep 29 09:03:00 sd 0:0:2:0: [sdb] 419430400 512-byte logical blocks: (214 GB/200 GiB)', knowledge).lines[0])
      .toMatchObject({ stage: 'attach', time: 'Sep 29 09:03:00', host: null });
    // (a host that happens to be named like one, before a program's own record, is a host: md1 runs the kubelet)
    expect(explainText('Sep 29 09:03:00 md1 kubelet[12]: I0929 09:03:00.000000      12 reconciler.go:1] something else', knowledge).lines[0])
      .toMatchObject({ component: 'kubelet', host: 'md1' });
    // the kernel finding a new SCSI disk is the attach arriving on the node
    expect(stageOf('Sep  8 10:46:14 node-2 kernel: [ 6416.453692] sd 1:0:0:2: [sde] 4096-byte physical blocks')).toBe('attach');
    expect(stageOf('E0811 02:51:22.663508  111893 rbd_attach.go:270] rbd: map failed: (5) Input/output error')).toBe('mount');
    expect(stageOf('I0102 03:04:05.123456    1 node.go:10] resizing: command=resize2fs args=[/dev/dm-0]')).toBe('resize');
    // a CSI v0 method, and a request named by its message type
    expect(stageOf('I0403 02:04:43.171259       1 connection.go:136] GRPC call: /csi.v0.Node/NodeGetId')).toBe('register');
    expect(stageOf('I1216 19:59:40.162545       1 controller.go:731] CreateVolumeRequest name:"pvc-1" capacity_range:<required_bytes:1073741824 > volume_capabilities:<mount:<fs_type:"ext4" > >')).toBe('provision');
    // payloads: only a volume id is DeleteVolume; a volume and its path is the usage poll NodeGetVolumeStats
    expect(stageOf('I0626 13:00:14.508121       1 connection.go:245] GRPC request: {"volume_id":"vol-1"}')).toBe('delete');
    expect(stageOf('I0512 10:44:02.951814       1 utils.go:89] [ID:23] GRPC request: {"volume_id":"vol-1","volume_path":"/var/lib/kubelet/pods/u/volumes/kubernetes.io~csi/pv/mount"}')).toBe('other');
    // every attach event names the attachdetach-controller: no detach in that (a row a test runner prefixed, read by its words)
    expect(stageOf('E             Normal   SuccessfulAttachVolume  5m1s   attachdetach-controller  AttachVolume.Attach succeeded for volume "pvc-1"')).toBe('attach');
    // start-up loops, probes, other controllers and the shell around the logs are nobody's step
    expect(stageOf('I1004 11:59:35.759007       1 controller.go:811] Starting provisioner controller rbd.csi.ceph.com_provisioner-0')).toBe('other');
    expect(stageOf('I0110 19:11:21.804827 3535357 kubelet.go:2545] "SyncLoop (probe)" probe="readiness" status="ready" pod="longhorn-system/csi-attacher-0"')).toBe('other');
    expect(stageOf('I1222 03:50:09.394772       1 gc_controller.go:166] Forced deletion of orphaned Pod kube-flannel-7gscn succeeded')).toBe('other');
    // a workload controller's Event is no volume's step, but for the claim it creates for a pod: that claim's provisioning starts
    expect(stageOf('3m2s        Normal    SuccessfulCreate         statefulset/db      create Claim data-db-0 Pod db-0 in StatefulSet db success')).toBe('provision');
    expect(stageOf('3m2s        Normal    SuccessfulCreate         statefulset/db      create Pod db-0 in StatefulSet db successful')).toBe('other');
    // a provisioner's name is no provisioning: a provisioner starting up says it ("Provisioner example.com/nfs specified"),
    // what waits for one names its work ("waiting for a volume to be created, either by external provisioner …")
    expect(stageOf('I0406 00:26:56.616749       1 main.go:65] Provisioner example.com/nfs specified')).toBe('other');
    expect(stageOf('  Event: waiting for a volume to be created, either by external provisioner "pd.csi.storage.gke.io" or manually created by system administrator, Type: Normal')).toBe('provision');
    // client-go's informer plumbing, its header cut to the file:line, is nobody's step whatever kinds it lists
    expect(stageOf('reflector.go:530] k8s.io/client-go/informers/factory.go:134: Watch close - *v1.PersistentVolumeClaim total 0 items received')).toBe('other');
    expect(stageOf('W0813 22:04:55.979734       1 provisioner.go:100] path /persistentvolumes/default-test-claim-pvc-1 does not exist, deletion skipped')).toBe('delete');
    // a test's step that prints an Event it saw is that Event's (Ginkgo's "STEP: Event [FailedMount]: …"); its other steps are the test's
    expect(stagesOf(['  STEP: Event [FailedMount]: MountVolume.SetUp failed for volume "v" : rpc error: code = PermissionDenied desc = mount failed',
      '  STEP: Deleting pod tester-4zwz7 in namespace e2e-389 @ 05/25/26 04:44:30.464'])).toEqual(['mount', 'other']);
    // Events' messages without their reasons that are no volume's step, whatever they name: a workload controller's, the
    // kubelet's about a sidecar's container; a time alone above them (any hour) places nothing
    expect(stagesOf(['2022-05-30 3:52:20', 'create Pod redis-0 in StatefulSet redis successful', '2022-05-30 3:52:20',
      'Created pod: paperless-78949868b6-bs5dv', 'Back-off restarting failed container snapshot-controller in pod zfs-controller-0_ix(0561)',
      'Created container csi-provisioner', 'Container image "registry.k8s.io/sig-storage/csi-provisioner:v3.5.0" already present on machine']))
      .toEqual(['other', 'other', 'other', 'other', 'other', 'other', 'other']);
    expect(stagesOf(['create Claim data-redis-0 Pod redis-0 in StatefulSet redis success'])).toEqual(['provision']);
    // a test runner's own lines and kubectl's refusal of its command are no step; nor is a volume's capability question
    expect(stagesOf(['E0101 00:00:00.000000    3521 operation_generator.go:700] MountVolume.SetUp failed for volume "v" (UniqueName: "kubernetes.io/csi/d^v") pod "p" (UID: "u") : timed out',
      '--- FAIL: TestAttacherWithCSIDriver (15.43s)', '  [FAIL] External Storage [Driver: test.csi.azure.com] [Testpattern: Dynamic PV (default fs)] provisioning [It] should provision storage with snapshot data source',
      'Error from server (BadRequest): a container name must be specified for pod csi-pod, choose one of: [external-attacher csi-mock]',
      'I1121 09:49:24.489530       1 controllerserver.go:1614] ValidateVolumeCapabilities called with req: &csi.ValidateVolumeCapabilitiesRequest{VolumeId:"fake-vol-id", VolumeCapabilities:[]*csi.VolumeCapability{&csi.VolumeCapability{AccessType:&csi.VolumeCapability_Mount{Mount:&csi.VolumeCapability_MountVolume{}}}}}']))
      .toEqual(['mount', 'other', 'other', 'other', 'other']);
    // the kubelet's container manager is no volume's, after a volume's line too; nor a time alone at any hour after one
    expect(stagesOf(['E0830 12:38:41.560295   22250 nestedpendingoperations.go:301] Operation for "{volumeName:kubernetes.io/csi/driver.longhorn.io^pvc-1 podName: nodeName:}" failed. No retries permitted until 2020-08-30 12:38:43 +0000 UTC (durationBeforeRetry 2s). Error: "Volume not attached according to node status for volume \\"pvc-1\\""',
      'I0830 12:38:47.141389   22250 container_manager_linux.go:470] [ContainerManager]: Discovered runtime cgroups name: /system.slice/docker.service'])).toEqual(['attach', 'other']);
    expect(stagesOf(['waiting for a volume to be created, either by external provisioner "zfs.csi.openebs.io" or manually created by system administrator', '2022-05-30 3:52:20']))
      .toEqual(['provision', 'other']);
    // a node journal's lines that are no volume's: journalctl -x's catalog text, a container root file system's mount
    // unit, cAdvisor's stats inside the kubelet, the kubelet's HTTP server answering a stats scrape
    expect(stagesOf(['Jul 31 01:48:49 node systemd[1]: var-lib-kubelet-pods-889893c1-volumes-kubernetes.io\\x7ecsi-pvc\\x2d1-mount.mount: Succeeded.',
      'Jul 31 01:48:49 node systemd[1]: var-lib-containers-storage-overlay-4f2a\\x2dmerged.mount: Succeeded.', '-- Subject: Unit succeeded', '-- Defined-By: systemd',
      'I1108 06:10:05.058460   12317 conversion.go:133] failed to handle multiple devices for container. Skipping Filesystem stats',
      'I1108 06:10:05.106590   12317 server.go:968] GET /stats/summary/: (95.946473ms) 200 [[Go-http-client/1.1] 10.0.0.1:52742]']).slice(1))
      .toEqual(['other', 'other', 'other', 'other', 'other']);
    // the in-tree GlusterFS SetUp failure's tail pulled from the client's log, and that log's lines, are the mount's; the
    // servers' glusterd logs the same way and is no mount
    expect(stagesOf([' the following error information was pulled from the glusterfs log to help diagnose this issue:',
      '[2017-01-05 18:39:22.250219] E [MSGID: 108006] [afr-common.c:3880:afr_notify] 0-vol1-replicate-0: All subvolumes are down. Going offline until atleast one of them comes back up.',
      '[2018-04-23 02:50:05.653029] W [glusterfsd.c:1288:cleanup_and_exit] (-->/lib64/libpthread.so.0(+0x7e25) [0x7fd328375e25] -->/usr/sbin/glusterfs(glusterfs_sigwaiter+0xe5) [0x55e0c1a0fd65] ) 0-: received signum (15), shutting down',
      '[2019-03-01 10:00:00.000001] I [MSGID: 106487] [glusterd-handler.c:1244:__glusterd_handle_cli_list_friends] 0-glusterd: Received cli list req']))
      .toEqual(['mount', 'mount', 'mount', 'other']);
    // an in-tree attacher's WaitForAttach on the node ("Successfully found attached …") is the mount's first step; the
    // controller's attach stays the attach
    expect(stagesOf(['I0531 08:16:44.010861    3521 attacher.go:131] Successfully found attached GCE PD "e2e-pvc-e5b2b27d".',
      'I0305 12:55:41.470581    3801 attacher.go:189] Successfully found attached AWS Volume "aws://ap-northeast-2a/vol-0a1b2c3d" at path "/dev/xvdbw".',
      'I0531 08:16:40.001234       1 operation_generator.go:360] AttachVolume.Attach succeeded for volume "pvc-1" (UniqueName: "kubernetes.io/gce-pd/e2e-pvc-e5b2b27d") from node "n1"']))
      .toEqual(['mount', 'mount', 'attach']);
    // SELinux refusing a sidecar the connection to its driver's socket names the sidecar, no step; a denial inside a
    // mount or an iSCSI login is that step's
    expect(stagesOf(['type=AVC msg=audit(1700596261.324:4756): avc:  denied  { connectto } for  pid=7892 comm="csi-attacher" path="/csi/csi.sock" scontext=system_u:system_r:container_t:s0:c224,c441 tcontext=system_u:system_r:container_t:s0:c3,c7 tclass=unix_stream_socket permissive=0',
      'type=AVC msg=audit(1700596261.467:4757): avc:  denied  { connectto } for  pid=8145 comm="csi-provisioner" path="/csi/csi.sock" scontext=system_u:system_r:container_t:s0:c566,c670 tcontext=system_u:system_r:container_t:s0:c3,c7 tclass=unix_stream_socket permissive=0']))
      .toEqual(['other', 'other']);
    expect(stagesOf(['type=AVC avc: denied { relabelfrom } for pid=66658 comm="mount" name="/" dev="sdb" scontext=system_u:system_r:container_t:s0 tcontext=system_u:object_r:unlabeled_t:s0 tclass=filesystem permissive=0']))
      .toEqual(['mount']);
    expect(stagesOf(['I1108 06:10:05.001000   12317 operation_executor.go:832] MountVolume.SetUp succeeded for volume "kubernetes.io/rbd/pvc-1" (spec.Name: "pvc-1") pod "u" (UID: "u").',
      'I1108 06:10:05.058460   12317 conversion.go:133] failed to handle multiple devices for container. Skipping Filesystem stats'])).toEqual(['mount', 'other']);
    // the attach/detach controller's node status updater is the attach's bookkeeping; csi-attacher's "failed to attach"
    // wrapper says the operation, whatever the driver's words; Go's HTTP server and the old library's leader election are nobody's
    expect(stagesOf(['I0302 21:51:11.715415       6 node_status_updater.go:74] Could not update node status. Failed to find node "ip-1" in NodeInformer cache. Error: \'node "ip-1" not found\'',
      'W0406 14:48:31.693527       1 actual_state_of_world.go:506] Failed to update statusUpdateNeeded field in actual state of world: Failed to set statusUpdateNeeded to needed true, because nodeName="m01" does not exist',
      'I1208 13:43:52.157179       1 csi_handler.go:219] Error processing "csi-7995415": failed to attach: rpc error: code = Unavailable desc = volume is not available for attaching, status: Creating',
      'I1017 07:46:10.892597       1 leader_election.go:172] new leader detected, current leader: csi-cephfsplugin-provisioner-7b9c4677c-x9v7p',
      'Oct 18 13:17:29 minikube kubelet[4047]: E1018 13:17:29.600118    4047 plugin_watcher.go:116] error failed to get plugin info using RPC GetInfo at socket /var/lib/kubelet/plugins/csi.juicefs.com/csi.sock, err: rpc error: code = Unimplemented',
      'Oct 18 13:18:16 minikube kubelet[4047]: I1018 13:18:16.283896    4047 log.go:172] http: multiple response.WriteHeader calls']))
      .toEqual(['attach', 'attach', 'attach', 'other', 'register', 'other']);
    // a deploy tool's output around the cluster's lines, and an object kubectl printed as JSON, are no step
    for (const line of ['TASK [cluster-storage : wait for the storageclass check] ************************', 'FAILED - RETRYING: wait for the storageclass check (9 retries left).',
      'fatal: [node1]: FAILED! => {"msg": "PersistentVolumeClaim data-0 is Pending"}',
      '                 {"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"annotations":{},"name":"restore","namespace":"default"},"spec":{"dataSource":{"kind":"VolumeSnapshot"}}}']) {
      expect(explainText(line, knowledge).lines[0], line).toMatchObject({ stage: 'other', kind: 'decoration' });
    }
    // nor is the cluster-autoscaler's, whatever it says of the pod's claims
    expect(stageOf('  Normal   NotTriggerScaleUp   4m30s   cluster-autoscaler   pod didn\'t trigger scale-up: 1 pod has unbound immediate PersistentVolumeClaims')).toBe('other');
    expect(stageOf('  Warning  FailedCreate  12s  statefulset-controller  create Claim data-db-0 for Pod db-0 in StatefulSet db failed error: exceeded quota')).toBe('other');
    // a bare "GetDeviceMountPath failed" is UnmountDevice's (operation_generator.go); the mount's names its operation
    expect(stageOf('E0616 00:55:49.824427     915 nestedpendingoperations.go:301] Operation for "{volumeName:kubernetes.io/local-volume/pv-1 podName: nodeName:}" failed. No retries permitted until 2020-06-16 00:55:57 +0000 UTC (durationBeforeRetry 8s). Error: "GetDeviceMountPath failed for volume \\"pv-1\\" (UniqueName: \\"kubernetes.io/local-volume/pv-1\\") on node \\"n1\\" : path does not exist"')).toBe('unmount');
    expect(stageOf('E0616 00:55:49.824427     915 nestedpendingoperations.go:301] Operation for "{volumeName:kubernetes.io/local-volume/pv-1 podName:uid-1 nodeName:}" failed. No retries permitted until 2020-06-16 00:55:57 +0000 UTC (durationBeforeRetry 8s). Error: "MountVolume.GetDeviceMountPath failed for volume \\"pv-1\\" (UniqueName: \\"kubernetes.io/local-volume/pv-1\\") pod \\"web-0\\" (UID: \\"uid-1\\") : path does not exist"')).toBe('mount');
    for (const shell of ['[root@master-1 ~]# kubectl get pvc', 'kubectl -n kube-system logs csi-controller-0 -c csi-provisioner',
      'csi-attacher-0                    1/2     CrashLoopBackOff   24         126m', 'volumesnapshotcontent.snapshot.storage.k8s.io "import-content" deleted',
      ' 103015 ?        Ssl    0:05 /csi-node-driver-registrar --v=2 --csi-address=/csi/csi.sock']) {
      expect(explainText(shell, knowledge).lines[0], shell).toMatchObject({ stage: 'other', kind: 'decoration' });
    }
  });

  it('what a post does to a line is the post\'s (bold, a quote marker before an events row with its count, a prompt ending in ">"), and what a message says comes before what it prints', () => {
    const stageOf = (line: string) => explainText(line, knowledge).lines[0]!.stage;
    expect(stageOf('**volume "pvc-0a1b" no longer needs deletion, skipping**')).toBe('delete');
    expect(explainText('> 12s (x3 over 40s)   Warning   FailedMount   Pod/web-0   MountVolume.SetUp failed for volume "pvc-1" : mount failed', knowledge).lines[0]).toMatchObject({ stage: 'mount', kind: 'event' });
    expect(explainText('me@laptop:~/logs> k -n storage logs csi-resizer-6d9c-x2x', knowledge).lines[0]).toMatchObject({ stage: 'other', kind: 'decoration' });
    // the reclaim policy and the claim a provisioner prints after its message are not what it did
    expect(stageOf('E0101 10:00:00.000000       1 provision.go:99] Failed to create volume {Delete pvc-9 &PersistentVolumeClaim{ObjectMeta:{Name:data}}}')).toBe('provision');
    // the provisioner library giving up; the controller's report list emptied before a detach; a registrar's own logger
    expect(stageOf('E0101 10:00:00.000000       1 controller.go:600] Exceeded failedDeleteThreshold threshold: 15, for volume "pvc-9", provisioner will not attempt retries for this volume')).toBe('delete');
    expect(stageOf('I0101 10:00:00.000000   77 reconciler.go:200] RemoveVolumeFromReportAsAttached failed while removing volume "kubernetes.io/csi/x^v" from node "n1" with: not found')).toBe('detach');
    expect(stageOf('{"ts":1,"logger":"my-csi-registrar","msg":"listening"}')).toBe('register');
    expect(stageOf('I0101 10:00:00.000000       1 leader_election.go:10] became leader, starting')).toBe('other');
    expect(stageOf('I0101 10:00:00.000000       1 snapshot_controller_base.go:400] controller initialized')).toBe('other');
  });

  it('an Event is known by its reason however it was pasted (reason and message only, the e2e framework\'s dump), and a driver\'s handshake is the handshake', () => {
    const one = (line: string) => explainText(line, knowledge).lines[0]!;
    expect(one('ExternalProvisioning    Waiting for a volume to be created either by the external provisioner \'x.csi.example.com\' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.'))
      .toMatchObject({ kind: 'event', stage: 'provision', messageId: 'ExternalProvisioning' });
    expect(one('Feb  2 10:00:00.123: INFO: At 2026-02-02 09:59:00 +0000 UTC - event for data-0: {x.csi.example.com_ctrl-0_abc } ProvisioningFailed: failed to provision volume with StorageClass "fast": snapshot not found'))
      .toMatchObject({ kind: 'event', stage: 'provision' });
    // (a word that is no reason we know stays prose)
    expect(one('Something    happened here').kind).not.toBe('event');
    expect(one('[ctrl-7f9c-x2 my-plugin] time="2026-01-01T00:00:00Z" level=info msg="GetPluginInfo: req: {}"').stage).toBe('other');
    // mount-utils removing the directory it has just unmounted
    expect(one('I0101 00:00:00.000000       1 mount_helper_common.go:150] Warning: deleting path "/var/lib/kubelet/pods/u/volumes/kubernetes.io~csi/pv/mount"').stage).toBe('unmount');
    // the attach/detach controller: what it records of volumesInUse gates a detach; its node bookkeeping is no step
    expect(one('I0101 00:00:00.000000       1 actual_state_of_world.go:350] SetVolumeMountedByNode volume kubernetes.io/csi/x^v to the node "n1" mounted false').stage).toBe('detach');
    expect(one('I0101 00:00:00.000000       1 attach_detach_controller.go:480] error removing node "n1" from desired-state-of-world: failed to delete node "n1" from list of nodes managed by attach/detach controller').stage).toBe('other');
    expect(one('I0101 00:00:00.000000       1 provisioner.go:40] starting PV provisioner example.com/nfs').stage).toBe('other');
  });

  it('an Event\'s message pasted alone, without its columns, is that Event: the summary says the flow stopped at it; the kubelet\'s own log line of the same failure (with its UniqueName) is not', () => {
    const r = explainText([
      '> AttachVolume.Attach failed for volume "pvc-9cd8" : rpc error: code = Internal desc = failed to publish volume: server is locked',
      'Multi-Attach error for volume "pvc-1" Volume is already exclusively attached to one node and can\'t be attached to another',
      'I0816 00:25:52.845893       1 connection.go:180] GRPC call: /csi.v1.Controller/ControllerPublishVolume',
      'MountVolume.MountDevice failed for volume "pvc-2" : rpc error: code = Internal desc = format of disk failed',
      'failed to provision volume with StorageClass "gold": rpc error: code = ResourceExhausted desc = quota exceeded',
    ].join('\n'), knowledge);
    expect(r.lines.map((l) => [l.kind, l.messageId, l.severity, l.stage])).toEqual([
      ['event', 'FailedAttachVolume', 'W', 'attach'], ['event', 'FailedAttachVolume', 'W', 'attach'], ['log', expect.any(String), 'I', 'attach'],
      ['event', 'FailedMount', 'W', 'mount'], ['event', 'ProvisioningFailed', 'W', 'provision'],
    ]);
    expect(r.lines[0]!.explanation).toMatch(/pasted without the event's columns/);
    expect(r.summary.stoppedAt).toMatchObject({ line: 4, stage: 'mount' });
    expect(r.summary.recognised).toBe(5);
    // the detailed form is the kubelet's log line, not the Event
    const log = explainText('MountVolume.MountDevice failed for volume "pvc-2" (UniqueName: "kubernetes.io/csi/x^v") pod "web-0" (UID: "u") : rpc error: code = Internal desc = x', knowledge).lines[0]!;
    expect(log.messageId).not.toBe('FailedMount');
  });

  it('a record\'s pieces stay together: a logger\'s prefixed records are records of their own, an object printed after a blank line is the record\'s, a stack trace is the call its frames name', () => {
    // (a long record is no reason for the next prefixed one to continue it)
    expect(stagesOf([
      `[plug-0 my-plugin] time="2026-01-01T00:00:00Z" level=info msg="CreateSnapshot: req: {\\"name\\":\\"snapshot-1\\",\\"source_volume_id\\":\\"${'v'.repeat(80)}\\"}"`,
      '[plug-0 my-plugin] time="2026-01-01T00:00:01Z" level=info msg="GetPluginInfo: req: {}"',
      '[plug-0 my-plugin] time="2026-01-01T00:00:02Z" level=error msg="could not read the backup\'s age"',
    ])).toEqual(['snapshot', 'other', 'snapshot']);
    expect(stagesOf([
      'error: handler error - driver: MyDriver method: DeleteVolume error: Error: dataset is busy',
      '',
      '{',
      '  code: 13,',
      '  message: "Error: dataset is busy"',
      '}',
    ])).toEqual(['delete', 'other', 'delete', 'delete', 'delete', 'delete']);
    expect(stagesOf([
      'at Client.Request (/app/src/client.js:10:5)',
      '    at processTicksAndRejections (node:internal/process/task_queues:96:5)',
      '    at async MyDriver.ControllerExpandVolume (/app/src/driver.js:300:7)',
    ])).toEqual(['resize', 'resize', 'resize']);
    // (only a record before the blank line: prose a post put there does not own the object after it)
    expect(stagesOf([
      'E0101 00:00:00.000000       1 utils.go:90] GRPC error: rpc error: code = Internal desc = NodeStageVolume failed',
      '',
      '{',
      '  code: 13,',
      '}',
    ]).filter((_, i) => i !== 1)).toEqual(['mount', 'mount', 'mount', 'mount']);
    expect(explainText(['and then I saw this', '', '{', '  code: 13,', '}'].join('\n'), knowledge).lines[2]!.kind).not.toBe('continuation');
    // frames that name no CSI method leave the record they continue as it was
    expect(stagesOf([
      'E0101 00:00:00.000000       1 node.go:9] NodeStageVolume failed: boom',
      '    at Client.Request (/app/src/client.js:10:5)',
      '    at processTicksAndRejections (node:internal/process/task_queues:96:5)',
    ])).toEqual(['mount', 'mount', 'mount']);
    expect(stagesOf(['at Client.Request (/app/src/client.js:10:5)', '    at processTicksAndRejections (node:internal/process/task_queues:96:5)'])).toEqual(['other', 'other']);
    // csi-attacher looks the node up for a detach too
    expect(stagesOf([
      'I0101 00:00:00.000000       1 csi_handler.go:260] Starting detach operation for "csi-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"',
      'I0101 00:00:00.000100       1 csi_handler.go:267] Detaching "csi-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"',
      'I0101 00:00:00.000200       1 csi_handler.go:699] Can\'t get CSINode n1: csinode.storage.k8s.io "n1" not found',
    ])).toEqual(['detach', 'detach', 'detach']);
    // (its own handler's operation: another program's detach line in between is not it)
    expect(stagesOf([
      'I0101 00:00:00.000000       1 csi_handler.go:251] Attaching "csi-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"',
      'I0101 00:00:00.000100       1 reconciler.go:203] attacherDetacher.DetachVolume started for volume "pvc-9" (UniqueName: "kubernetes.io/csi/x^v") on node "n2"',
      'I0101 00:00:00.000200       1 csi_handler.go:699] Can\'t get CSINode n1: csinode.storage.k8s.io "n1" not found',
    ])).toEqual(['attach', 'detach', 'attach']);
  });

  it('how a record continues: a klog multi-line value up to its closing " >", a message cut after its colon, an old or tab-separated Events row', () => {
    const kinds = (lines: string[]) => explainText(lines.join('\n'), knowledge).lines.map((l) => l.kind);
    const value = [
      'E0101 00:00:00.000000       7 driver.go:40] "delete vol error" err=<',
      '\tcleanup job is not done: waiting for mount point /mnt/x',
      '\t2026/01/01 00:00:00 helper[9] <FATAL>: Path /mnt is not inside the share',
      ' > logger="driver" PV="pvc-1"',
      'I0101 00:00:01.000000       7 driver.go:77] mounting /dev/sdb at /var/lib/kubelet/plugins/x/globalmount',
    ];
    expect(kinds(value)).toEqual(['log', 'continuation', 'continuation', 'continuation', 'log']);
    expect(stagesOf(value)).toEqual(['delete', 'delete', 'delete', 'delete', 'mount']);
    // (a paste cut inside the value: the next klog header is a record of its own)
    expect(kinds(value.slice(0, 2).concat(value.slice(4)))).toEqual(['log', 'continuation', 'log']);
    // a UI that lists Events as a time above each message: the time alone is no step, and a scheduler's message posted
    // alone under another line is an Event of its own, not that line's rest
    const ui = ['2021-04-23 10:23:18', 'storageclass.storage.k8s.io "sc-1" not found', '2021-04-23 10:23:18', 'Scaled up replica set app-78cfb564d5 to 1',
      '2021-09-01 12:01:41 Created pod: app-858f864cd6-gb9t6', '0/1 nodes are available: 1 pod has unbound immediate PersistentVolumeClaims.'];
    expect(stagesOf(ui)).toEqual(['other', 'provision', 'other', 'other', 'other', 'provision']);
    expect(kinds(ui).slice(4)).toEqual(['log', 'event']);
    // mount-utils' tail after a blank line the post put inside the error is still the error's
    const broken = ['MountVolume.SetUp failed for volume "pvc-1" : ', 'mount failed: exit status 32 ', '', 'Mounting command: systemd-run ', 'Mounting arguments: ', '--scope '];
    expect(stagesOf(broken)).toEqual(['mount', 'mount', 'other', 'mount', 'mount', 'mount']);
    // a message cut after its colon goes on in the next line's plain text, whatever words that has
    expect(stagesOf([
      '  5m   5m   1   kubelet, n1     Warning   FailedMount   MountVolume.SetUp failed for volume "pvc-2" : iscsi: last err seen:',
      'Could not attach disk: Timeout after 10s',
    ])).toEqual(['mount', 'mount']);
    // (not a field of an object, nor a record of its own)
    expect(kinds(['E0101 00:00:00.000000       1 x.go:1] NodeStageVolume failed, details:', 'status: Failed'])).toEqual(['log', 'decoration']);
    // kubectl before 1.14 (FirstSeen LastSeen Count From … Type Reason Message) and rows whose columns became tabs
    const old = explainText([
      '  21m\t\t21m\t\t1\tkubelet, n1\t\t\tWarning\t\tFailedAttachVolume\t\tAttachVolume.Attach failed for volume "pvc-3" : timed out',
      '  21m    1m    10    kubelet, n1        Warning    FailedSync    Error syncing pod',
    ].join('\n'), knowledge).lines;
    expect(old.map((l) => [l.kind, l.stage, l.messageId])).toEqual([['event', 'attach', 'FailedAttachVolume'], ['event', 'other', 'FailedSync']]);
  });

  it('what makes a line no step: a program starting up, a post\'s punctuation and commands, a name under Finalizers; and what makes it one: a saved attach or detach error, the Controller call a plugin serves', () => {
    // a driver starting up serves no volume yet: its set-up words ("mounter", "Setup") are no mount, until its first call
    expect(stagesOf([
      'I0101 00:00:00.000000       1 main.go:20] Starting driver type: blockfs with name: blockfs.csi.example.com',
      'I0101 00:00:00.100000       1 mounter.go:87] loaded mounter: kernel',
      'I0101 00:00:00.200000       1 setup.go:9] SetupDriver: attaching to the storage API at https://10.0.0.9',
      'I0101 00:00:01.000000       1 utils.go:176] ID: 1 GRPC call: /csi.v1.Node/NodeStageVolume',
      'I0101 00:00:01.100000       1 mounter.go:120] mounting /dev/sdb at /var/lib/kubelet/plugins/x/globalmount',
    ])).toEqual(['other', 'other', 'other', 'mount', 'mount']);
    // (a container's whole log opens with its start-up; not its last lines, nor lines filtered with grep)
    const log = ['I0101 00:00:00.100000       1 mounter.go:87] loaded mounter: kernel'];
    expect(stagesOf(['$ kubectl logs csi-x-node-7 -c driver', ...log])).toEqual(['other', 'other']);
    expect(stagesOf(['$ kubectl logs csi-x-node-7 -c driver --tail=20', ...log])).toEqual(['other', 'mount']);
    expect(stagesOf(['$ kubectl logs csi-x-node-7 -c driver | grep pvc-1', ...log])).toEqual(['other', 'mount']);
    // Go's log package stamps one program's records: a line that says nothing takes that program's call
    expect(stagesOf([
      '2026/01/01 00:00:00 request POST /csi.v1.Controller/CreateVolume HTTP/2.0',
      '2026/01/01 00:00:00 request headers map[Content-Type:[application/grpc]]',
    ])).toEqual(['provision', 'provision']);
    // a controller plugin mounting a share inside DeleteVolume is deleting, not mounting
    expect(stagesOf([
      '[pod/csi-x-controller-0/x] I0101 00:00:00.000000       1 utils.go:76] GRPC call: /csi.v1.Controller/DeleteVolume',
      '[pod/csi-x-controller-0/x] I0101 00:00:00.000100       1 controllerserver.go:330] internally mounting //srv/share at /tmp/vol-1',
    ])).toEqual(['delete', 'delete']);
    // a diff's rule, a lone backtick, a command behind a wrapper or a typo, gRPC-go's resolver: the post's or plumbing
    // (after a record, which they would otherwise continue)
    expect(stagesOf(['E0101 00:00:00.000000    2107 nestedpendingoperations.go:301] Operation for "x" failed. Error: "MountVolume.SetUp failed for volume \\"pvc-1\\""',
      '+--', '`', 'micro8s kubectl -n kube-system logs -f csi-snapshot-controller-86b8 --tail=30',
      'I0101 00:00:00.000000    2107 operation_generator.go:193] scheme "" not registered, fallback to default scheme'])).toEqual(['mount', 'other', 'other', 'other', 'other']);
    // a VolumeAttachment printed: the saved error's message (and the lines it runs on to) is that attach's or detach's; a finalizer is a name
    expect(stagesOf([
      'Metadata:',
      '  Finalizers:',
      '    external-attacher/x-csi-example-com',
      'Status:',
      '  Detach Error:',
      '    Message:  rpc error: code = Internal desc = could not reach the array',
      '    Time:     2026-01-01T00:00:00Z',
    ])).toEqual(['other', 'other', 'other', 'other', 'other', 'detach', 'other']);
    expect(stagesOf([
      'status:',
      '  attachError:',
      '    message: \'rpc error: code = Aborted desc = the array refused, err:',
      '      status code was 404 Not Found for request: action=PUT\'',
      '    time: "2026-01-01T00:00:00Z"',
    ])).toEqual(['other', 'other', 'attach', 'attach', 'other']);
    // a volume's name shortened ("delete vol", a "…-delvol" job) is still a delete; staging a volume is a mount, whatever failed under it
    expect(stagesOf(['I0101 00:00:00.000000       7 jobs.go:449] waitUntilJobCompleted: Job fs-4370bc01-delvol is completed',
      '  2026-01-01T00:00:00.000000Z ERROR csi_node::node: Failed to stage volume 921d5046: attach failed: IO error'])).toEqual(['delete', 'mount']);
    // external-provisioner's warning about a deprecated StorageClass parameter is read while it provisions
    const dep = explainText('W0101 00:00:00.000000       1 controller.go:620] "fstype" is deprecated and will be removed in a future release, please use "csi.storage.k8s.io/fstype" instead', knowledge).lines[0]!;
    expect([dep.stage, dep.component, dep.messageId]).toEqual(['provision', 'external-provisioner', 'externalProvisioner.parameterDeprecated']);
  });

  it('structured records: msg says what the record is before its other fields; logfmt lines are records; a payload in a quoted value; journald\'s split lines; a logger\'s caller is no word', () => {
    const kinds = (lines: string[]) => explainText(lines.join('\n'), knowledge).lines.map((l) => l.kind);
    // msg first ("failed to delete volume", whatever the error says is attached); a msg that says nothing takes its program's operation
    const del = [
      `level=info ts=2026-01-01T00:00:00Z component=volumes msg="deleting volume" volume-id=42 ${'x'.repeat(60)}`,
      'level=info ts=2026-01-01T00:00:01Z component=volumes msg="failed to delete volume" volume-id=42 err="volume 42 is still attached to a server"',
      'level=error ts=2026-01-01T00:00:01Z component=grpc msg="handler failed" err="rpc error: code = Internal desc = volume 42 is still attached to a server"',
      'level=error ts=2026-01-01T00:00:02Z component=grpc msg="giving up" code=13',
    ];
    expect(kinds(del)).toEqual(['log', 'log', 'log', 'log']);
    expect(stagesOf(del)).toEqual(['delete', 'delete', 'delete', 'delete']);
    // (a payload in a logger's quoted value: volume and node, ControllerPublishVolume)
    expect(stagesOf(['level=debug ts=2026-01-01T00:00:00Z msg="handling request" req="volume_id:\\"42\\" node_id:\\"7\\" volume_capability:<mount:<> access_mode:<mode:SINGLE_NODE_WRITER > > "'])).toEqual(['attach']);
    // journald stores each line of a multi-line klog record as its own entry under the same prefix
    const split = [
      'Jan 02 20:09:46 node-2 kubelet[2047]: E0102 20:09:46.460991    2047 mount_linux.go:139] Mount failed: exit status 32',
      'Jan 02 20:09:46 node-2 kubelet[2047]: missing codepage or helper program, or other error',
      'Jan 02 20:09:46 node-2 systemd[1]: Unmounted /var/lib/kubelet/pods/p1/volumes/kubernetes.io~csi/pvc-1/mount.',
      'Jan 02 20:09:47 node-2 systemd[1]: Started Session 7 of user core.',
    ];
    expect(kinds(split)).toEqual(['log', 'continuation', 'log', 'log']);
    expect(stagesOf(split).slice(0, 3)).toEqual(['mount', 'mount', 'unmount']);
    // zap's console encoder prints the caller: "provisioner.go" says nothing of the record
    expect(stagesOf(['2026-01-01T00:00:00.000Z        ERROR   app/provisioner.go:174          {"eventcode": "pv.delete.failure", "msg": "Failed to delete Local PV", "reason": "busy"}'])).toEqual(['delete']);
    expect(stagesOf(['2026-01-01T00:00:00.000Z        ERROR   app/provisioner.go:174          cleanup of /data/x timed out'])).toEqual(['other']);
    // (on its own, with no program's operation to fall back on)
    expect(stagesOf(['level=info ts=2026-01-01T00:00:01Z component=volumes msg="failed to delete volume" volume-id=42 err="volume 42 is still attached to a server"'])).toEqual(['delete']);
  });

  it('what older and other components say: the pre-1.9 controller\'s words, the provisioner library\'s operation keys, a node plugin looking for its attached disk, sidecars starting, a caption, stern\'s markers, the kubelet\'s "Volume detached"', () => {
    // the attach/detach controller before 1.9 recorded attach failures under FailedMount, in words
    expect(stagesOf(['  20s\t\t20s\t\t1\t{controller-manager }\t\t\tWarning\t\tFailedMount\tFailed to attach volume "v1" on node "n1" with: the API said no'])).toEqual(['attach']);
    // the provisioner library's goroutinemap keys and verdicts
    expect(stagesOf([
      'I0507 05:35:04.817246       1 controller.go:1080] scheduleOperation[delete-pvc-87a0[8892]]',
    ])).toEqual(['delete']);
    expect(stagesOf(['I0507 05:35:04.831365       1 controller.go:1047] deletion of volume "pvc-fa38" ignored: ignored because identity annotation on PV does not match ours'])).toEqual(['delete']);
    // a node plugin serving NodeStageVolume finds the disk the controller attached: staging, not attaching
    expect(stagesOf([
      'I0723 14:29:29.682310       1 utils.go:55] /csi.v1.Node/NodeStageVolume called with request: volume_id:"disk-1" staging_target_path:"/var/lib/kubelet/plugins/x/globalmount" volume_capability:<mount:<fs_type:"ext4" > >',
      'I0723 14:29:30.184393       1 node.go:273] Successfully found attached disk "disk-1" at device path /dev/disk/by-id/disk-1.',
    ])).toEqual(['mount', 'mount']);
    // sidecars starting; a post's caption; stern's "pod added" markers
    expect(stagesOf([
      'I1109 11:36:01.428504       1 controller.go:255] Starting external resizer x.csi.example.com',
      'Pod (with PVC mount) events:',
      '+ x-provisioner-77cb47986c-snc84 › x-provisioner',
    ])).toEqual(['other', 'other', 'other']);
    // the kubelet's "Volume detached" is the last step of its teardown (it forgets the volume): nothing is detached yet
    const detached = explainText('I0930 03:02:40.594361      87 reconciler_common.go:289] "Volume detached for volume \\"tools\\" (UniqueName: \\"kubernetes.io/configmap/p1-tools\\") on node \\"n1\\" DevicePath \\"\\""', knowledge).lines[0]!;
    expect([detached.stage, detached.component, detached.messageId]).toEqual(['unmount', 'kubelet', 'kubelet.volumeDetached']);
  });

  it('a pod named after one sidecar is that sidecar\'s log: the start-up lines every sidecar prints are not registration there', () => {
    const st = (text: string) => explainText(text, knowledge).lines.map((l) => l.stage);
    // csi-attacher v4.4 prints "CSI driver name" at main.go:154, where node-driver-registrar v2.1 prints its own
    expect(st([
      '$ kubectl -n kube-system logs csi-attacher-7b645fb6b-65b6b',
      'I0101 10:00:00.000000       1 main.go:154] CSI driver name: "x.csi.example.com"',
    ].join('\n'))).toEqual(['other', 'other']);
    // (in the registrar's own log the same line is its registration, as ever)
    expect(st([
      '$ kubectl -n kube-system logs csi-node-x2 -c node-driver-registrar',
      'I0101 10:00:00.000000       1 main.go:154] CSI driver name: "x.csi.example.com"',
    ].join('\n'))).toEqual(['other', 'register']);
    // (a pod that runs every controller sidecar says nothing about whose log it is)
    expect(st([
      '$ kubectl -n kube-system logs csi-rbdplugin-provisioner-5d9c',
      'I0101 10:00:00.000000       1 main.go:154] CSI driver name: "x.csi.example.com"',
    ].join('\n'))).toEqual(['other', 'register']);
  });

  it('what a post adds around a log is the post\'s (a viewer\'s line numbers, an image, a container\'s name as caption, kubectl\'s "Defaulted container"), what it quotes is the log\'s, and a saved error or a failing call is a step', () => {
    // a log viewer's line numbers between the records; an image the post links; a caption naming the container
    expect(stagesOf([
      'csi-provisioner',
      'I0101 10:00:00.000000       1 main.go:101] Received GetInfo call: &InfoRequest{}',
      '41',
      'I0101 10:00:01.000000       1 snapshot_controller.go:920] Removed protection finalizer from volume snapshot default/s1',
      '![image](https://example.com/a.png)',
    ])).toEqual(['other', 'register', 'other', 'snapshot', 'other']);
    // a Markdown quote of any line of the log, not only a record's first ("> " then the volume manager's timeout)
    expect(stagesOf(['>  Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: timed out waiting for the condition'])).toEqual(['mount']);
    // kubectl names the container it picked: "CSI driver name" in csi-snapshotter's log is its start-up, not registration
    expect(stagesOf([
      'Defaulted container "csi-snapshotter" out of: csi-snapshotter, x-plugin',
      'I0101 10:00:00.000000       1 main.go:154] CSI driver name: "x.csi.example.com"',
    ])).toEqual(['other', 'other']);
    // a program's feature gates name features, not operations (HonorPVReclaimPolicy is no deletion)
    expect(stagesOf(['I0101 10:00:00.000000       1 feature_gate.go:249] feature gates: &{map[HonorPVReclaimPolicy:true]}'])).toEqual(['other']);
    // iscsiadm's arguments logged without its name are a login (node staging); a cloud's "Create Disk" is provisioning,
    // even at the top of a container's whole log: an error is no start-up chatter
    expect(stagesOf(['I0101 10:00:00.000000       1 iscsi.go:64] [EXECUTING] -m node -T iqn.2000-01.com.example:target-1 -p 10.0.0.1 --login'])).toEqual(['mount']);
    expect(stagesOf([
      '$ kubectl logs -n kube-system disk-controller-5d9c',
      'time="2019-01-01T10:00:00Z" level=error msg="Create Disk error: API Error: InvalidRegionId.NotFound"',
    ])).toEqual(['other', 'provision']);
    // a status message that saved an operation's error is that operation's; a condition's message is none
    expect(stagesOf(['status:', "  message: 'Failed to check and update snapshot content: the content is invalid'", '  readyToUse: false'])).toEqual(['other', 'snapshot', 'other']);
    expect(stagesOf(['  - message: Waiting for user to (re-)start a pod to finish file system resize of volume on node.'])).toEqual(['other']);
  });

  it('what a line is beneath what surrounds it: a quotation mark or a zsh prompt the post added, a printed field, a folded status message, mount-utils\' clean-up, a driver\'s HTTP request dump', () => {
    // an Events row the post put in quotation marks is still an Event, decided by its reason
    expect(stagesOf(['"Warning  VolumeFailedDelete  2m (x7 over 3m)  x.csi.example.com_ctrl-0_1  rpc error: code = Internal desc = volume is still attached to a node"'])).toEqual(['delete']);
    // oh-my-zsh's prompt before a command
    expect(stagesOf(['➜ kubectl logs -n kube-system deployment/x-controller -c csi-attacher'])).toEqual(['other']);
    // mount-utils' CleanupMountPoint (mount_helper_common.go) tears a mount point down, whatever path it names
    expect(stagesOf(['W0101 10:00:00.000000       1 mount_helper_common.go:142] Warning: "/var/lib/kubelet/pods/p1/volumes/kubernetes.io~csi/pvc-1/mount" is not a mountpoint, deleting'])).toEqual(['unmount']);
    // an HTTP request a driver dumps inside DeleteVolume names the storage API's resource ("sloprovisioning"), not what it does;
    // a gRPC proxy's request line names the CSI call
    expect(stagesOf([
      'time="2022-01-01T10:00:00Z" level=info msg="/csi.v1.Controller/DeleteVolume: REQ 1: VolumeId=v-1"',
      'time="2022-01-01T10:00:00Z" level=debug msg="HTTP REQUEST GET /univmax/restapi/100/sloprovisioning/symmetrix/1/volume/2 HTTP/1.1 Host: 0.0.0.0"',
    ])).toEqual(['delete', 'delete']);
    expect(stagesOf(['2024/07/23 21:18:22 request (://localhost) POST /csi.v1.Controller/CreateVolume HTTP/2.0'])).toEqual(['provision']);
    // a printed object's fields name objects (a claim, a content), not steps; a saved error folded over the lines under it is the error's
    expect(stagesOf([
      'spec:',
      '  source:',
      '    persistentVolumeClaimName: data-claim',
      'status:',
      '  boundVolumeSnapshotContentName: snapcontent-1',
      '  error:',
      '    message: Failed to create snapshot with error cannot find the',
      '      class',
      '    time: "2024-11-20T19:41:56Z"',
    ])).toEqual(['other', 'other', 'other', 'other', 'other', 'other', 'snapshot', 'snapshot', 'other']);
  });

  it('the kubelet\'s clean-up of orphaned pods, a volume\'s growth, the scheduler\'s volume binding, gRPC\'s resolver chatter and a zap record inside the call it serves', () => {
    // kubelet_volumes.go (cleanupOrphanedPodDirs) tears down what pods that are gone left, whatever its words; so does an orphaned pod anywhere
    expect(stagesOf([
      'E1121 15:48:02.200715     888 kubelet_volumes.go:245] "There were many similar errors. Turn up verbosity to see them."',
      'I1121 15:48:02.200758     888 x.go:247] "Orphan pod" err="orphaned pod \\"7c71\\" found, but error occurred"',
    ])).toEqual(['unmount', 'unmount']);
    // LVM's extents, xfs_growfs and resize2fs grow a volume, whatever mount words their errors carry
    expect(stagesOf([
      'I1217 21:30:21.138968       1 lvm_util.go:730] num logical extents - current: 93440, required: 98304',
      'E1217 21:30:21.356212       1 lvm_util.go:793] lvm: could not resize the volume vg/pvc-1: xfs_growfs: /dev/vg/pvc-1 is not a mounted XFS filesystem',
    ])).toEqual(['resize', 'resize']);
    // the scheduler finding no PersistentVolume to bind a claim to: the binding the provision stage covers
    expect(stagesOf(["  Warning  FailedScheduling  10s  default-scheduler  0/1 nodes are available: 1 node(s) didn't find available persistent volumes to bind."])).toEqual(['provision']);
    // grpc-go's resolver logs through the kubelet's klog while it dials a plugin: no registration yet
    expect(stagesOf([
      'I0122 04:15:30.562613   58971 plugin_watcher.go:203] Adding socket path or updating timestamp /var/lib/kubelet/plugins_registry/x-reg.sock to desired state cache',
      'I0122 04:15:30.562735   58971 operation_generator.go:193] parsed scheme: ""',
    ])).toEqual(['register', 'other']);
    // zap's console records inside the ControllerUnpublishVolume they serve are that call's
    expect(stagesOf([
      '2022-07-22T23:30:23.608Z\tINFO\tvanilla/controller.go:1169\tControllerUnpublishVolume: called with args {VolumeId:v-1 NodeId:n-1}',
      '2022-07-22T23:30:23.642Z\tINFO\tnode/manager.go:195\tNode hasn\'t been discovered yet with nodeUUID 4222',
    ])).toEqual(['detach', 'detach']);
  });

  it('knows older sidecars\' lines that no profile prints (external-provisioner v1.x, external-attacher v2, node-driver-registrar v1.0)', () => {
    const cases: Array<[string, string, string]> = [
      ['W0102 03:04:05.000000       1 controller.go:685] Retrying syncing claim "default/data" because failures 3 < threshold 15', 'externalProvisioner.legacyRetryingBelowThreshold', 'provision'],
      ['I0102 03:04:05.000000       1 controller.go:1045] Claim processing succeeded, removing PVC 3c0e6b5e-2d1c-4c2a-9a45-0b8f1f3e9a10 from claims in progress', 'externalProvisioner.legacyClaimSucceeded', 'provision'],
      ['I0102 03:04:05.000000       1 controller.go:799] Starting provisioner controller rbd.csi.ceph.com_csi-rbdplugin-provisioner-0_6b9c!', 'externalProvisioner.legacyStartingController', 'other'],
      ['W0102 03:04:05.000000       1 csi_handler.go:177] VA csi-0e4e for volume vol-1 has attached status true but actual state false. Adding back to VA queue for forced reprocessing', 'externalAttacher.legacyForcedReprocessing', 'attach'],
      ['I0102 03:04:05.000000       1 node_register.go:63] CSI driver node ID: "node-1"', 'nodeDriverRegistrar.legacyNodeId', 'register'],
      // the kubelet's CSI client at -v=4: which capability it asks about says whose work it is; the volume data file is the mount's
      ['I0102 03:04:05.000000    3149 csi_client.go:467] kubernetes.io/csi: calling NodeGetCapabilities rpc to determine if NodeSupportsStageUnstage', 'kubelet.nodeSupportsStageUnstage', 'mount'],
      ['I0102 03:04:05.000000    3149 csi_client.go:675] kubernetes.io/csi: calling NodeGetCapabilities rpc to determine if the node service has VOLUME_MOUNT_GROUP capability', 'kubelet.nodeSupportsStageUnstage', 'mount'],
      ['I0102 03:04:05.000000    3149 csi_client.go:675] kubernetes.io/csi: calling NodeGetCapabilities rpc to determine if the node service has EXPAND_VOLUME capability', 'kubelet.nodeSupportsNodeExpand', 'resize'],
      ['I0102 03:04:05.000000    3149 csi_client.go:558] kubernetes.io/csi: calling NodeGetCapabilities rpc to determine if NodeSupportsVolumeStats', 'kubelet.nodeSupportsVolumeStats', 'other'],
      ['I0102 03:04:05.000000    3149 csi_client.go:675] kubernetes.io/csi: calling NodeGetCapabilities rpc to determine if the node service has GET_VOLUME_STATS capability', 'kubelet.nodeSupportsVolumeStats', 'other'],
      ['I0102 03:04:05.000000    3149 csi_util.go:70] kubernetes.io/csi: volume data file saved successfully [/var/lib/kubelet/pods/d59e/volumes/kubernetes.io~csi/pvc-1/vol_data.json]', 'kubelet.volumeDataSaved', 'mount'],
    ];
    for (const [line, id, stage] of cases) expect(explainText(line, knowledge).lines[0], line).toMatchObject({ messageId: id, stage, match: 'catalog' });
    // the cluster never prints them: no scenario's trace has one
    for (const s of SCENARIOS) expect(runScenario(s.id, { k8s: '1.20' }).steps.some((st) => /\.legacy/.test(st.msg ?? '')), s.id).toBe(false);
  });

  it('unknown lines get a keyword guess, marked as a guess; plain prose is unrelated', () => {
    // (a lower-case line right after a record reads as a wrapped piece of it; after a blank line it is prose)
    const [a, , b, c] = ex('I0101 00:00:00.000000       1 driver.go:12] NodeStageVolume: formatting /dev/xvdf with ext4\n\nthe weather is nice today\n$ kubectl get pods');
    expect([a!.match, a!.stage]).toEqual(['guess', 'mount']);
    expect([b!.kind, b!.stage, b!.match]).toEqual(['unrelated', 'other', 'none']);
    expect(c!.kind).toBe('decoration');
  });

  it('summarises where the flow stopped and what a healthy system prints next', () => {
    // seed 002 on 1.20 while it is stuck: the logs up to the controller's minute check that gets it out
    const all = runScenario('ad-detach-backoff', { k8s: '1.20' }).steps;
    const syncAt = all.findIndex((s) => s.msg === 'attachDetachController.volumesAreAttachedFailed');
    const lastWait = all.slice(0, syncAt).map((s) => s.msg).lastIndexOf('kubelet.operationFailed');
    const steps = all.slice(0, lastWait + 1).filter((s) => s.log);
    const r = explainText(steps.map((s) => s.log).join('\n'), knowledge);
    expect(r.summary.stages).toContain('attach');
    expect(r.summary.stoppedAt).not.toBeNull();
    expect(r.summary.errors).toBeGreaterThan(0);
    const healthy = runScenario('attach', { k8s: '1.30' }).steps.filter((s) => s.log);
    const cutAt = healthy.findIndex((s) => s.msg === 'externalAttacher.grpcCallVA' || /ControllerPublishVolume/.test(s.log!));
    const part = explainText(healthy.slice(0, cutAt).map((s) => s.log).join('\n'), knowledge);
    expect(part.summary.stoppedAt).toBeNull();
    expect(part.summary.nextExpected).not.toBeNull();
    expect(part.summary.lastHealthy?.line).toBeGreaterThan(0);
  });
});

describe('klog records whose date and time columns the post cut off', () => {
  it('"<thread> file.go:line] …" is still a record of its program: a start-up says nothing of a volume, a call it names decides, and its severity is not claimed', () => {
    const lines = [
      '1 feature_gate.go:226] feature gates: &{map[Topology:true]}',
      '1 csi-provisioner.go:140] Version: v9.9.0',
      '1 connection.go:153] Connecting to unix:///var/lib/csi/sockets/pluginproxy/csi.sock',
      '1 common.go:111] Probing CSI driver for readiness',
      '1 controller.go:1279] provision "apps/data-0" class "fast": started',
    ];
    expect(stagesOf(lines)).toEqual(['other', 'other', 'other', 'other', 'provision']);
    const r = explainText(lines.join('\n'), knowledge).lines;
    expect(r.map((l) => l.kind)).toEqual(['log', 'log', 'log', 'log', 'log']);
    expect(r[4]!.severity).toBeNull();
    // a line of its own, not the continuation of the one before
    expect(explainText(['E0101 10:00:00.000000       1 controller.go:957] error syncing claim "apps/data-0": failed to provision volume with StorageClass "fast": rpc error: code = Internal desc = boom', '1 controller.go:1279] provision "apps/data-1" class "fast": started'].join('\n'), knowledge).lines[1]!.kind).toBe('log');
  });
});

describe('a record cut where its arguments begin', () => {
  it('at its own file, a line that is a printf template\'s words up to its first argument is that message (the argument wrapped onto the next line, or lost)', () => {
    const r = explainText(['I0719 10:00:00.000000       1 controller.go:281] Started PVC processing', '"apps/data-0"'].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.stage, l.messageId])).toEqual([['resize', 'externalResizer.startedPvcProcessing'], ['resize', 'externalResizer.startedPvcProcessing']]);
    expect(r[1]!.kind).toBe('continuation');
    expect(explainText('1 controller.go:281] Started PVC processing:', knowledge).lines[0]!.messageId).toBe('externalResizer.startedPvcProcessing');
  });
  it('not at another program\'s file, not for a few words of a longer head, not for a structured message', () => {
    expect(explainText('I0719 10:00:00.000000       1 worker.go:12] Started PVC processing', knowledge).lines[0]!.match).not.toBe('catalog');
    expect(explainText('I0719 10:00:00.000000       1 controller.go:281] Started PVC', knowledge).lines[0]!.messageId).not.toBe('externalResizer.startedPvcProcessing');
  });
});

describe('a node plugin\'s server naming a pod', () => {
  it('is serving NodePublishVolume, the one node call that knows the pod (podInfoOnMount), even right after its start-up lines', () => {
    expect(stagesOf([
      'I0617 01:36:11.707002       1 secrets-store.go:89] Version: v0.0.19, BuildTime: 2021-01-19-19:06',
      'I0617 01:36:11.707322       1 server.go:111] Listening for connections on address: //csi/csi.sock',
      'I0617 03:30:53.135895       1 nodeserver.go:300] "Using grpc client" provider="azure" pod="web-6fbdf4b7c5-hwntc"',
    ])).toEqual(['other', 'other', 'mount']);
  });
  it('not a line that names only the pod\'s UID, nor one of another file', () => {
    expect(stagesOf(['I0617 03:30:53.135895       1 nodeserver.go:300] "Using grpc client" provider="azure" podUID="0b1c2d3e-0000-4000-8000-000000000001"'])).toEqual(['other']);
    expect(stagesOf(['I0617 03:30:53.135895       1 provider.go:300] "Using grpc client" provider="azure" pod="web-6fbdf4b7c5-hwntc"'])).toEqual(['other']);
  });
});

describe('a code span or fence a post opened before what it pasted', () => {
  it('an indented fence before a kubelet operation is the post\'s: the operation decides', () => {
    expect(stagesOf(['  ``` MountVolume.SetUp failed for volume "pvc-0b1c2d3e-0000-4000-8000-000000000001" : rpc error: code = Internal desc = mount failed ```'])).toEqual(['mount']);
  });
  it('a backtick before a kubectl table header is the post\'s: the header is kubectl\'s print, no step of the flow after it', () => {
    expect(stagesOf([
      '`NAME                                       CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS        CLAIM            STORAGECLASS   REASON   AGE',
      'I0102 03:04:05.000000       1 controller.go:1311] delete "pvc-0b1c2d3e-0000-4000-8000-000000000001": started',
    ])).toEqual(['other', 'delete']);
  });
});

describe('words that say what a line is doing to a volume', () => {
  it('a fence with no language tag glued to an event row\'s first word is the post\'s: the event decides', () => {
    expect(stagesOf(['```Warning\t\tFailedMount\tUnable to mount volumes for pod "web-0_default(0b1c2d3e-0000-4000-8000-000000000009)": timeout expired waiting for volumes to attach/mount'])).toEqual(['mount']);
  });
  it('a backend volume deleted under its own name (a share, a subvolume, an image, a disk) is the delete stage, and so are the lines its error continues on', () => {
    expect(stagesOf(['E0102 03:04:05.000000       1 nas-provisioner.go:210] failed to delete share "data-7" for "k8s.apps.data-7", err: exit status 2'])).toEqual(['delete']);
    expect(stagesOf(['I0102 03:04:05.000000       1 backend.go:88] deleting subvolume csi-vol-0b1c2d3e in group csi'])).toEqual(['delete']);
    // (a container image the kubelet removes is no volume)
    expect(stagesOf(['I0102 03:04:05.000000    1200 image_gc_manager.go:300] deleted container image sha256:0b1c2d3e'])).not.toEqual(['delete']);
  });
  it('a node plugin finding the multipath device of a volume is the staging (mount); flushing and removing it is the unstaging (unmount)', () => {
    expect(stagesOf([
      'time="2025-01-02T03:04:05Z" level=debug msg="multipath - looking for the DM name of the new paths" func="findDevice()"',
      'time="2025-01-02T03:04:06Z" level=debug msg="discovered device /dev/dm-3 for LUN 7" func="findDevice()"',
    ])).toEqual(['mount', 'mount']);
    expect(stagesOf(['time="2025-01-02T03:04:07Z" level=info msg="flushing multipath device /dev/dm-3 before removing its paths" func="removeDevice()"'])).toEqual(['unmount']);
  });
  it('a VolumeAttachment printed as YAML is an object, not the attach: its attacher, attached and time fields are other', () => {
    expect(stagesOf(['status:', '  attached: false', '  attachError:', '    message: rpc error: code = Internal desc = attach failed', '    time: "2025-01-02T03:04:05Z"', 'spec:', '  attacher: disk.csi.example.com']))
      .toEqual(['other', 'other', 'other', 'attach', 'other', 'other', 'other']);
  });
  it('a Markdown heading of the post is the post\'s, whatever it names ("## Controller image: …csi-resizer…")', () => {
    expect(stagesOf(['## Controller image: example/csi-driver:v1.2.3 registry.k8s.io/sig-storage/csi-resizer:v1.9.0', '### Pod events'])).toEqual(['other', 'other']);
  });
  it('rules from the twenty-first set: a node registering with the API server is no plugin registration; a mount directory removed is the teardown; "attached and mounted", a volume given its fsGroup, a target path made and a pod volume directory made or mounted by a FUSE program are the mount', () => {
    expect(stagesOf([
      'I0102 03:04:05.000000    1200 kubelet_node_status.go:70] "Attempting to register node" node="node-3"',
      'I0102 03:04:05.100000    1200 kubelet_node_status.go:73] "Successfully registered node" node="node-3"',
      'I0102 03:04:05.200000    1200 kubelet_node_status.go:120] Node node-3 was previously registered',
      'I0102 03:04:05.300000    1200 kubelet_node_status.go:300] Setting node annotation to enable volume controller attach/detach',
    ])).toEqual(['other', 'other', 'other', 'other']);
    // (node-driver-registrar's own registration words stay registration)
    expect(stagesOf(['I0102 03:04:05.000000       1 main.go:164] Registration Server started at: /registration/disk.csi.example.com-reg.sock'])).toEqual(['register']);
    expect(stagesOf(['time="2025-01-02T03:04:05Z" level=info msg="Removing mount path directory: /var/lib/example/mounts/data-7"'])).toEqual(['unmount']);
    expect(stagesOf(['2025-01-02 03:04:05.000000 I | exampledriver: volume pool/pvc-7 has been attached and mounted'])).toEqual(['mount']);
    expect(stagesOf(['I0102 03:04:05.000000       1 nodeserver.go:88] successfully set fsgroup to 2000 on /var/lib/kubelet/pods/p/volumes/kubernetes.io~csi/pvc-7/mount'])).toEqual(['mount']);
    expect(stagesOf(['I0102 03:04:05.000000       1 mounter.go:40] Creating target path /data/alloc/7/vol'])).toEqual(['mount']);
    expect(stagesOf(['Fri Jan  2 03:04:05 UTC 2025 EXEC: mkdir -p /var/lib/kubelet/pods/0b1c2d3e-0000-4000-8000-000000000001/volumes/example~fuse/vol-7'])).toEqual(['mount']);
    // (the pod's volume path alone is as often a teardown's: no guess from it)
    expect(stagesOf(['W0102 03:04:05.000000     469 mount.go:131] could not determine device for path: "/var/lib/kubelet/pods/0b1c2d3e-0000-4000-8000-000000000001/volumes/kubernetes.io~csi/pvc-7"'])).not.toEqual(['mount']);
  });
  it('an Event the catalog does not know is read by its object\'s kind, reason and message; an error report\'s "Error message:" field is the failure it names; a shell\'s trace of a command and kubectl\'s "edited" are the session\'s', () => {
    expect(stagesOf(['I0102 03:04:05.000000       1 event.go:377] Event(v1.ObjectReference{Kind:"VolumeSnapshotContent", Namespace:"", Name:"snapcontent-7", UID:"u", APIVersion:"snapshot.storage.k8s.io/v1", ResourceVersion:"9", FieldPath:""}): type: \'Warning\' reason: \'ContentRetryFailed\' retry failed'])).toEqual(['snapshot']);
    expect(stagesOf(['Error message:                      Backend pool "fast" does not support snapshots.'])).toEqual(['snapshot']);
    expect(stagesOf(['Category:                           RuntimeException'])).toEqual(['other']);
    expect(stagesOf(['+ kubectl describe sc fast-expandable', 'persistentvolumeclaim/data-7 edited'])).toEqual(['other', 'other']);
  });
  it('a volume found "not mounted" is a teardown\'s finding, "not a mount point" alone is not; waiting for a device to appear and reading its serial are the staging', () => {
    expect(stagesOf(['E0102 03:04:05.000000       1 utils.go:83] GRPC error: rpc error: code = NotFound desc = Volume not mounted'])).toEqual(['unmount']);
    expect(stagesOf(['W0102 03:04:05.000000       1 mount_helper_common.go:34] Warning: "/var/lib/kubelet/pods/p/volumes/kubernetes.io~csi/pvc-7/mount" is not a mountpoint, deleting'])).toEqual(['unmount']);
    // (a mount checks whether its target is a mount point before it mounts)
    expect(stagesOf(['I0102 03:04:05.000000       1 mount_linux.go:300] IsLikelyNotMountPoint: /var/lib/kubelet/pods/p/volumes/kubernetes.io~csi/pvc-7/mount is not a mount point'])).not.toEqual(['unmount']);
    expect(stagesOf(['{"level":"warn","message":"hit timeout waiting for device node to appear: /dev/disk/by-path/ip-10.0.0.5:3260-iscsi-iqn.example:vol-7-lun-0"}'])).toEqual(['mount']);
    expect(stagesOf(['time="2025-01-02T03:04:05Z" level=trace msg=">>> GetDeviceSerial called for /dev/sdc" file="sgio_linux.go:400"'])).toEqual(['mount']);
  });
  it('a backend making the volume\'s own object is provisioning ("created new LV", "Volume requested", a "… Create Request"), but a stage requested is staging and a new group snapshot is a snapshot', () => {
    expect(stagesOf(['{"level":"info","logger":"controller-runtime.manager.controller.logicalvolume","msg":"created new LV","name":"pvc-7"}'])).toEqual(['provision']);
    expect(stagesOf(['{"level":"info","msg":"Volume requested","sizeRequestGiB":10,"time":"2025-01-02T03:04:05Z"}'])).toEqual(['provision']);
    expect(stagesOf(['time="2025-01-02 03:04:05" level=info msg="---> Receive Xvolume Create Request"'])).toEqual(['provision']);
    expect(stagesOf(['I0102 03:04:05.000000    1100 stage_unstage.go:37] "Stage volume requested" volumeID="pvc-7"'])).toEqual(['mount']);
    expect(stagesOf(['I0102 03:04:05.000000       1 group_controller.go:117] need to create new volume group snapshot, failed to get existing one'])).toEqual(['snapshot']);
  });
  it('mount-utils\' NeedResize, which a NodeStageVolume runs after mounting, is the staging; resize2fs growing the file system is the resize', () => {
    expect(stagesOf([
      'I0102 03:04:05.000000       1 resizefs_linux.go:139] ResizeFs.needResize - checking mounted volume /dev/sdc',
      'I0102 03:04:05.000100       1 resizefs_linux.go:143] Ext size: filesystem size=10737418240, block size=4096',
      'I0102 03:04:05.000200       1 resizefs_linux.go:158] Volume /dev/sdc: device size=21474836480, filesystem size=10737418240, block size=4096',
    ])).toEqual(['mount', 'mount', 'mount']);
    expect(stagesOf(['I0102 03:04:05.000000       1 resizefs_linux.go:60] ResizeFS.Resize - Expanding mounted volume /dev/sdc'])).toEqual(['resize']);
  });
  it('knows ceph-csi v3.12.2\'s RBD lines and the older wording seed 004\'s cluster printed', () => {
    const r = explainText([
      'I0102 03:04:05.000000       1 controllerserver.go:784] ID: 9 Req-ID: pvc-1 created image rbd/csi-vol-1 backed for request name pvc-1',
      'I0102 03:04:05.000000       1 controllerserver.go:662] ID: 9 Req-ID: pvc-1 created volume pvc-1 backed by image csi-vol-1',
      'I0102 03:04:06.000000       1 rbd_util.go:646] ID: 10 Req-ID: 0001-0024-x Can not find rbd image: rbd/csi-vol-1-temp, but maybe no error',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.messageId)).toEqual(['csiControllerPlugin.cephCreatedVolume', 'csiControllerPlugin.legacyCephCreatedVolume', 'csiControllerPlugin.legacyCephTempImageNotFound']);
    expect(r.map((l) => l.stage)).toEqual(['provision', 'provision', 'delete']);
  });
  it('a ZFS volume given a new size is the resize; mke2fs making the file system is the mount', () => {
    expect(stagesOf(['I0102 03:04:05.000000       1 zfs_util.go:700] Running [ zfs ] [set volsize=10737418240 pool/pvc-0b1c2d3e-0000-4000-8000-000000000001]'])).toEqual(['resize']);
    expect(stagesOf(['level=error msg="handler failed" err="rpc error: code = Internal desc = exit status 1\\nmke2fs 1.47.0 (5-Feb-2023)\\nThe file  does not exist"'])).toEqual(['mount']);
  });
  it('a program whose first lines say it is attaching a volume is doing so, not starting up', () => {
    expect(stagesOf([
      'kubectl -n kube-system logs csi-controller-0 -c csi-driver',
      'level=info ts=2025-01-02T03:04:05.000Z component=api-volume-service msg="attaching volume" volume-id=42 server-id=7',
      'level=info ts=2025-01-02T03:04:06.000Z component=api-volume-service msg="attaching volume" volume-id=43 server-id=7',
    ])).toEqual(['other', 'attach', 'attach']);
  });
  it('the reconciler naming the operation it could not start is that operation\'s stage, whatever its controllerAttachDetachEnabled flag says', () => {
    expect(stagesOf(['E0102 03:04:05.000000    1200 reconciler.go:266] operationExecutor.MountVolume failed (controllerAttachDetachEnabled true) for volume "data" (UniqueName: "kubernetes.io/csi/disk.csi.example.com^vol-1") pod "web-0" (UID: "0b1c2d3e") : volume not attached yet'])).toEqual(['mount']);
    expect(stagesOf(['E0102 03:04:05.000000    1200 reconciler.go:199] operationExecutor.UnmountDevice failed (controllerAttachDetachEnabled true) for volume "vol-1" (UniqueName: "kubernetes.io/csi/disk.csi.example.com^vol-1") on node "n1" : device is busy'])).toEqual(['unmount']);
  });
  it('a network block device (NBD) connected on the node is the staging (mount); disconnected, the unstaging (unmount)', () => {
    expect(stagesOf(['INFO[0012] connecting /dev/nbd3 to the export of volume 7', 'INFO[0044] disconnected /dev/nbd3 from the export of volume 7'])).toEqual(['mount', 'unmount']);
  });
  it('a pod volume directory removed with rmdir, and a target path the driver cannot find, are the unpublish (unmount)', () => {
    expect(stagesOf(['executing command: rmdir /var/lib/kubelet/pods/0b1c2d3e/volumes/kubernetes.io~csi/pvc-1/mount'])).toEqual(['unmount']);
    expect(stagesOf(['E0102 03:04:05.000000       1 utils.go:60] GRPC error: rpc error: code = NotFound desc = target path /var/lib/kubelet/pods/0b1c2d3e/volumes/kubernetes.io~csi/pvc-1/mount does not exist'])).toEqual(['unmount']);
  });
  it('a terminal\'s colour codes, real or left by a web page as U+FFFD, are not read: a Ginkgo STEP between records is its own line', () => {
    expect(stagesOf(['\u001b[1mSTEP\u001b[0m: deleting the pod', '\uFFFD[1mSTEP\uFFFD[0m: deleting the claim'])).toEqual(['other', 'other']);
    const r = explainText(['E0102 03:04:05.000000       1 utils.go:60] GRPC error: rpc error: code = Internal desc = NodeUnpublishVolume failed', '\u001b[1mSTEP\u001b[0m: deleting the pod'].join('\n'), knowledge);
    expect(r.lines.map((l) => [l.kind, l.stage])).toEqual([['log', 'unmount'], ['decoration', 'other']]);
    expect(r.lines[1]!.text).toBe('STEP: deleting the pod');
    // (and another control sequence a terminal tool writes, erase to the end of the line)
    expect(explainText('\u001b[KE0102 03:04:05.000000       1 utils.go:60] GRPC error: rpc error: code = Internal desc = NodeUnpublishVolume failed\u001b[0m', knowledge).lines[0]!.text)
      .toBe('E0102 03:04:05.000000       1 utils.go:60] GRPC error: rpc error: code = Internal desc = NodeUnpublishVolume failed');
  });
  it('a probe of a driver\'s health endpoint is no volume\'s step', () => {
    expect(stagesOf([
      'time="2025-01-02T03:04:04Z" level=debug msg="Mounting the volume." volume=pvc-1 target=/var/lib/kubelet/pods/0b1c2d3e/volumes/kubernetes.io~csi/pvc-1/mount',
      'time="2025-01-02T03:04:05Z" level=debug msg="REST API call received." Duration="9µs" Method=GET RequestURL=/readiness Route=Readiness',
    ])).toEqual(['mount', 'other']);
  });
  it('the node\'s connector disconnecting an iSCSI device is the unstaging (unmount), not the controller\'s detach; a SCSI device found by its HCTL is the staging', () => {
    expect(stagesOf(['I0102 03:04:05.000000       1 node.go:190] DisconnectVolume, detaching ISCSI device'])).toEqual(['unmount']);
    expect(stagesOf(['START: scsi.GetDeviceNameByHCTL hctl=3:0:0:5'])).toEqual(['mount']);
  });
  it('a volume made from a snapshot (its content source, the sizes compared) is provisioned; making the snapshot is the snapshot stage', () => {
    expect(stagesOf(['I0102 03:04:05.000000       1 controller.go:853] VolumeContentSource_Snapshot {Snapshot:snapshot_id:"snap-0b1c2d3e" }'])).toEqual(['provision']);
    expect(stagesOf(['I0102 03:04:05.000000       1 controller.go:861] Requested volume size is 10737418240 and snapshot size is 10737418240 for the source snapshot snap-0b1c2d3e'])).toEqual(['provision']);
    expect(stagesOf(['I0102 03:04:05.000000       1 snapshotter.go:90] creating snapshot snap-0b1c2d3e of volume vol-1'])).toEqual(['snapshot']);
  });
  it('a backend saying it created a volume is the provisioning, and a created VolumeAttachment is not', () => {
    expect(stagesOf(['Wed, 02 Jan 2025 03:04:05 +0000 backend 2 INFO Volume created: pvc-0b1c2d3e-0000-4000-8000-000000000001'])).toEqual(['provision']);
    expect(stagesOf(['I0102 03:04:05.000000       1 attacher.go:40] created volume attachment csi-0b1c2d3e for node n1'])).not.toEqual(['provision']);
  });
  it('a kubelet line cut before its operation\'s name ("MountDevice failed … not found in the list of registered CSI drivers") is the mount; a configMap volume it cannot read too', () => {
    expect(stagesOf(['MountDevice failed to create newCsiDriverClient: driver name disk.csi.example.com not found in the list of registered CSI drivers'])).toEqual(['mount']);
    expect(stagesOf(['E0102 03:04:05.000000    1200 configmap.go:157] Couldn\'t get configMap default/app-config: configmaps "app-config" not found'])).toEqual(['mount']);
  });
  it('a gRPC error naming a pod\'s mount path is the node plugin\'s, so its mount words stay the mount (not a controller\'s attach)', () => {
    const r = explainText(['E0102 03:04:05.000000       1 driver.go:105] "GRPC error" err=<', '\trpc error: code = Internal desc = Could not mount "10.0.0.5:/export" at "/var/lib/kubelet/pods/0b1c2d3e/volumes/kubernetes.io~csi/pvc-1/mount": exit status 32', ' >'].join('\n'), knowledge);
    expect(r.lines.map((l) => l.stage)).toEqual(['mount', 'mount', 'mount']);
    expect(r.lines[0]!.component).toBe('csi-node-plugin');
  });
  it('a command set in inline code ("`kubectl logs … -c csi-provisioner") is the post\'s command, not the provisioning', () => {
    expect(stagesOf(['  `kubectl logs csi-controller-0 -n storage -c csi-provisioner', '`kubectl describe pvc data-0`'])).toEqual(['other', 'other']);
  });
  it('a command\'s output an error quotes in parentheses ("output:(mke2fs …") is the record\'s up to its closing line, blank lines kept blank', () => {
    expect(stagesOf([
      '3m (x4 over 9m)   Warning   FailedMount   Pod/db-0   MountVolume.MountDevice failed for volume "pvc-1" : rpc error: code = Internal desc = format of disk "/dev/sdc" failed: type:("xfs") target:("/var/lib/kubelet/plugins/kubernetes.io/csi/disk.csi.example.com/0b1c/globalmount") options:("defaults") errcode:(exit status 1) output:(meta-data=/dev/sdc isize=512',
      'Writing inode tables:',
      '         0, 1, 2',
      '',
      'Discarding blocks (4 MiB): failed',
      '',
      'the device went away (twice))',
      '',
      'Unrelated sentence the post wrote after it.',
    ])).toEqual(['mount', 'mount', 'mount', 'other', 'mount', 'other', 'mount', 'other', 'other']);
  });
  it('iscsid logging in (a login rejected, the kernel reporting the connection) is the staging; a block volume\'s loop device released is the unmapping', () => {
    expect(stagesOf([
      'Mar 03 10:00:01 worker-2 iscsid[812]: conn 0 login rejected: target error (03/01)',
      'Mar 03 10:00:01 worker-2 iscsid[812]: Connection3:0 to [target: iqn.2001-05.com.example:vol-7, portal: 10.0.0.9,3260] through [iface: default] is operational now',
    ])).toEqual(['mount', 'mount']);
    // (the same connection shut down is the logout of the unstaging; a driver that "logged into portal" is staging)
    expect(stagesOf(['Mar 03 10:09:01 worker-2 iscsid[812]: Connection3:0 to [target: iqn.2001-05.com.example:vol-7, portal: 10.0.0.9,3260] through [iface: default] is shutdown.'])).toEqual(['unmount']);
    expect(stagesOf(['Wed, Mar 05 2025 10:00:02 am | {"level":"info","message":"successfully logged into portal 10.0.0.9:3260 and created device /dev/sdc"}'])).toEqual(['mount']);
    expect(stagesOf(['Mar 03 10:00:02 worker-2 iscsid[812]: Kernel reported iSCSI connection 3:0 error (1020 - ISCSI_ERR_TCP_CONN_CLOSE: TCP connection closed) state (3)'])).toEqual(['mount']);
    expect(stagesOf(['W0303 10:00:03.000000    1500 volume_path_handler_linux.go:61] couldn\'t find loopback device which takes file descriptor lock. Skip detaching device. device path: "/var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/pvc-2/dev/0b1c"'])).toEqual(['unmount']);
  });
  it('a controller registering its informers or seeing a new leader is starting up, not registering a plugin', () => {
    expect(stagesOf([
      'I0303 10:00:04.000000       1 controller.go:120] Register Pod informer for resizer disk.csi.example.com',
      'I0303 10:00:04.100000       1 leader_election.go:212] new leader detected, current leader: csi-controller-7d9c-abcde',
    ])).toEqual(['other', 'other']);
  });
  it('a scheduler filtering out nodes without room for a volume, or finding none with enough free storage, is placing a volume to provision', () => {
    expect(stagesOf([
      'time="2025-03-03T10:00:05Z" level=debug msg="filter out a candidate node for predicate fail" error="not enough capacity" node=worker-3 volume=data-0',
      '  Warning  FailedScheduling  12s   default-scheduler  0/3 nodes are available: 3 node(s) did not have enough free storage.',
    ])).toEqual(['provision', 'provision']);
  });
  it('the PV controller finding no deleter is the delete; a snapshot controller updating its cache of contents is the snapshot', () => {
    expect(stagesOf(['E0303 10:00:06.000000       1 pv_controller.go:1500] error getting deleter volume plugin for volume "pv-logs": no deletable volume plugin matched'])).toEqual(['delete']);
    expect(stagesOf(['I0303 10:00:07.000000       1 util.go:138] storeObjectUpdate updating content "static-content-7" with version 4242'])).toEqual(['snapshot']);
  });
  it('the external-attacher reading a node\'s CSINode serves the operation its lines were about: the attach, or the detach', () => {
    const read = 'I0303 10:00:08.000100       1 csi_handler.go:460] Can\'t get CSINodeInfo worker-4: csinodes.storage.k8s.io "worker-4" not found';
    expect(stagesOf(['I0303 10:00:08.000000       1 csi_handler.go:220] Starting attach operation for "csi-0b1c"', read])).toEqual(['attach', 'attach']);
    expect(stagesOf(['I0303 10:00:08.000000       1 csi_handler.go:250] Starting detach operation for "csi-0b1c"', read])).toEqual(['detach', 'detach']);
  });
  it('a driver\'s own line inside the NodeUnpublishVolume it logged speaks of the mount it takes down', () => {
    expect(stagesOf([
      'I0303 10:00:09.000000       1 node.go:101] Method NodeUnpublishVolume called with: {"target_path":"/var/lib/kubelet/pods/0b1c/volumes/kubernetes.io~csi/pvc-3/mount","volume_id":"bucket-3"}',
      'W0303 10:00:09.100000       1 fuse.go:104] Unable to find PID of fuse mount /var/lib/kubelet/pods/0b1c/volumes/kubernetes.io~csi/pvc-3/mount',
    ])).toEqual(['unmount', 'unmount']);
    // (the same words with no call around them are the mount's)
    expect(stagesOf(['W0303 10:00:09.100000       1 fuse.go:104] Unable to find PID of fuse mount /var/lib/kubelet/pods/0b1c/volumes/kubernetes.io~csi/pvc-3/mount'])).toEqual(['mount']);
  });
  it('a capabilities response logged before any call is the handshake, not the call that follows it', () => {
    expect(stagesOf([
      'I0303 10:00:10.000000       1 nodeserver.go:240] Using default NodeGetCapabilities',
      'I0303 10:00:10.000100       1 utils.go:119] GRPC response: capabilities:<rpc:<type:STAGE_UNSTAGE_VOLUME > > capabilities:<rpc:<type:GET_VOLUME_STATS > >',
      'I0303 10:00:10.100000       1 utils.go:112] GRPC call: /csi.v1.Node/NodeStageVolume',
      'I0303 10:00:10.100100       1 utils.go:113] GRPC request: volume_id:"vol-1" staging_target_path:"/var/lib/kubelet/plugins/kubernetes.io/csi/pv/pvc-1/globalmount"',
    ])).toEqual(['other', 'other', 'mount', 'mount']);
  });
  it('a report\'s "Error message:" field that says an operation failed is that operation\'s, however its value is aligned', () => {
    expect(stagesOf(['Category:            StorageException', 'Error message:       Failed to delete zfs snapshot pool/pvc-5@snap-1'])).toEqual(['other', 'snapshot']);
  });
  it('a word that only contains "claim" ("thinclaimpod") says nothing of a claim; a command\'s mountpoint= option is no mount', () => {
    expect(stagesOf(['I0303 10:00:11.000000     697 status_manager.go:441] Removing Pod "dataclaimjob_default(0b1c)" from status map.'])).toEqual(['other']);
    expect(stagesOf(['E0303 10:00:12.000000       1 zfs_util.go:421] zfs: could not create volume tank/pvc-6 cmd [create -o quota=1G -o mountpoint=legacy tank/pvc-6] error: dataset already exists'])).toEqual(['provision']);
  });
  it('a driver creating or cloning a volume, or a backend restoring a snapshot into one, is provisioning', () => {
    expect(stagesOf([
      'I0303 10:00:13.000000 1 backend.go:117] storage driver creating volume pvc-7 with create spec {Name: pvc-7}',
      '2025-03-03 10:00:13.200 [DeviceManager] ERROR Storage/Satellite - Failed to restore snapshot pvc-7_snap-1 into pvc-9',
    ])).toEqual(['provision', 'provision']);
    expect(stagesOf(['E0303 10:00:13.100000       1 zfs_util.go:470] zfs: could not clone volume tank/vol-8 from tank/vol-7@s1'])).toEqual(['provision']);
  });
  it('an LVM logical volume removed is the delete', () => {
    expect(stagesOf(['{"level":"error","ts":1741000000.1,"logger":"controller.logicalvolume","msg":"failed to remove LV","name":"pvc-10","error":"exit status 5"}'])).toEqual(['delete']);
  });
  it('the kubelet\'s CSI mounter naming its step (mounter.SetUpAt) is the mount, whatever registration words its error holds', () => {
    expect(stagesOf([' kubernetes.io/csi: mounter.SetUpAt failed to get CSI client: driver name files.csi.example.com not found in the list of registered CSI drivers'])).toEqual(['mount']);
  });
  it('a terminal UI\'s frame bars around an event row are the UI\'s; a framed piece of a wrapped record stays the record\'s', () => {
    const framed = explainText('│   Warning  FailedScheduling  <unknown>   0/3 nodes are available: 3 pod has unbound immediate      │', knowledge).lines[0]!;
    expect([framed.kind, framed.messageId, framed.stage]).toEqual(['event', 'FailedScheduling', 'provision']);
  });
  it('ceph-csi removing a snapshot image it named csi-snap-… is the snapshot stage, not the provisioning its shared line serves elsewhere', () => {
    expect(stagesOf(['I0303 10:00:14.000000       1 rbd_util.go:1250] ID: 52 Req-ID: 0001-0009-rook-ceph-0000000000000001-0b1c rbd: snap rm replicapool/csi-snap-0b1c@csi-snap-0b1c using mon 10.0.0.1:6789'])).toEqual(['snapshot']);
  });
  it('a controller plugin mounting its backend inside a DeleteVolume it logged is deleting; inside a CreateVolume, provisioning', () => {
    expect(stagesOf([
      'I0303 10:00:15.000000       1 utils.go:110] GRPC call: /csi.v1.Controller/DeleteVolume',
      'I0303 10:00:15.100000       1 controllerserver.go:225] DeleteVolume: deleting subdirectory for volume nfs.example.com/share#pvc-11',
      'I0303 10:00:15.200000       1 controllerserver.go:502] internally mounting nfs.example.com:/share at /tmp/pvc-11',
      'I0303 10:00:15.300000       1 mount_linux.go:218] Mounting cmd (mount) with arguments (-t nfs nfs.example.com:/share /tmp/pvc-11)',
    ])).toEqual(['delete', 'delete', 'delete', 'delete']);
    expect(stagesOf([
      'I0303 10:00:16.000000       1 utils.go:110] GRPC call: /csi.v1.Controller/CreateVolume',
      'I0303 10:00:16.300000       1 mount_linux.go:218] Mounting cmd (mount) with arguments (-t nfs nfs.example.com:/share /tmp/vol-12)',
    ])).toEqual(['provision', 'provision']);
  });
  it('a driver\'s metrics naming its controller\'s unpublish ("…_controller_unpublish_volume") is the detach, not the node\'s unpublish', () => {
    expect(stagesOf(['I0303 10:00:17.000000       1 cloud_metrics.go:112] "Observed Request Latency" latency_seconds=0.09 request="disk_csi_driver_controller_unpublish_volume" result_code="succeeded"'])).toEqual(['detach']);
  });
  it('a gRPC interceptor\'s error that names no call, after the program\'s own line named NodeUnpublishVolume, is the unpublish\'s', () => {
    expect(stagesOf([
      'I0303 10:00:18.000000       1 nodeserver.go:155] NodeUnpublishVolume - deleting the targetPath - [/var/lib/kubelet/pods/0b1c/volumes/kubernetes.io~csi/pvc-13/mount]',
      'E0303 10:00:18.000100       1 utils.go:55] GRPC error: failed to get lstat of target path [/var/lib/kubelet/pods/0b1c/volumes/kubernetes.io~csi/pvc-13/mount]: stale file handle',
    ])).toEqual(['unmount', 'unmount']);
  });
  it('a logger\'s record inside the NodeUnpublishVolume its program logged speaks of the mount it takes down, as a klog line does', () => {
    expect(stagesOf([
      'time="2025-03-03T10:00:19Z" level=info msg="/csi.v1.Node/NodeUnpublishVolume: REQ 0007: VolumeId=vol-14, TargetPath=/var/lib/kubelet/pods/0b1c/volumes/kubernetes.io~csi/pvc-14/mount"',
      'time="2025-03-03T10:00:19Z" level=info msg="Found private mount for device /dev/sdd"',
    ])).toEqual(['unmount', 'unmount']);
  });
  it('a JSON logger\'s record printed over several lines ("{", a field a line, "}") is read whole: every line is its stage; a printed object that is no record is not', () => {
    expect(stagesOf([
      '{',
      '  "level": "info",',
      '  "ts": "2025-03-03T10:00:20Z",',
      '  "msg": "triggering filesystem resize",',
      '  "device": "/dev/vg0/lv-15"',
      '}',
      'Done.',
    ])).toEqual(['resize', 'resize', 'resize', 'resize', 'resize', 'resize', 'other']);
    // (an object with no logger fields, a request printed after its record, keeps the record's stage)
    expect(stagesOf(['I0303 10:00:21.000000       1 utils.go:112] GRPC call: /csi.v1.Node/NodeStageVolume', '{', '  "volume_id": "vol-16"', '}'])).toEqual(['mount', 'mount', 'mount', 'mount']);
  });
  it('a fish shell\'s prompt ("user@host ~/dir (branch)> kubectl logs …") is the post\'s', () => {
    expect(stagesOf(['alice@laptop ~/src/deploy (resize-fix)> kubectl logs -n kube-system csi-controller-0 csi-resizer'])).toEqual(['other']);
  });
  it('a macOS bash prompt ("host:dir user$ …") and a poster\'s "[...]" are the post\'s, even inside a record they cut', () => {
    expect(stagesOf(['laptop-7:Downloads alice$ kubectl logs csi-snapshotter-0 | grep warn'])).toEqual(['other']);
    expect(stagesOf([
      'E0923 04:38:28.377000       7 backup.go:164] Failed to create snapshot: runtask failed {CAST:',
      '[...]',
      '  desc: "Snapshot create failed with error : ERR failed SNAPCREATE"',
    ])).toEqual(['snapshot', 'other', 'snapshot']);
  });
  it('a clone in progress, a directory of a CSI path removed, a volume left to delete by hand, a group snapshot\'s request', () => {
    expect(stagesOf([
      '  Normal   CloneScheduled      16m   datavolume-pvc-clone-controller  Cloning from default/ubuntu-dv into default/ubuntu-dv-new scheduled',
      '  Normal   CSICloneInProgress  16m   datavolume-pvc-clone-controller  CSI Volume clone in progress (for pvc default/ubuntu-dv)',
    ])).toEqual(['provision', 'provision']);
    expect(stagesOf(['2023-01-12T00:15:35.822138686+00:00 stdout F executing filesystem command: rmdir /local/csi/per-alloc/c4b07999/data/mount'])).toEqual(['unmount']);
    expect(stagesOf(['time="2019-08-21T18:49:59Z" level=warning msg="Volume could not be cleaned up and must be manually deleted: API failed (500)."'])).toEqual(['delete']);
    // ceph-csi's request id names the request: a group snapshot's omap read serves the snapshot, not a provisioning
    expect(stagesOf(['I1024 14:32:44.562296       1 omap.go:89] ID: 29 Req-ID: groupsnapshot-ca51faa2 got omap values: (pool="rbd", namespace="", name="csi.groups.default"): map[]'])).toEqual(['snapshot']);
  });
  it('a NodeGetInfo answer, the kubelet\'s probe events, mount\'s own error text, an iSCSI target\'s side of a login, a volume destroyed, a pod directory left, a volume creation', () => {
    // NodeGetInfo's answer is a node id without a volume (csi.proto NodeGetInfoResponse)
    expect(stagesOf(['I0405 12:52:39.254538       1 utils.go:83] GRPC response: {"node_id":"worker-3.example.local"}'])).toEqual(['register']);
    expect(stagesOf(['  Warning  Unhealthy  2m (x4 over 3m)  kubelet  Readiness probe failed: Get http://10.2.2.151:9200/_cluster/health: context deadline exceeded'])).toEqual(['other']);
    // util-linux mount's error text ends over two lines
    expect(stagesOf(['       In some cases useful info is found in syslog - try', '       dmesg | tail or so.'])).toEqual(['mount', 'mount']);
    expect(stagesOf([
      'time="2022-04-25T10:25:19Z" level=info msg="Target is connected to initiator: 192.168.1.3:11594"',
      'time="2022-04-25T10:25:19Z" level=warning msg="iscsi connection[0] closed"',
    ])).toEqual(['mount', 'mount']);
    expect(stagesOf(['time="2022-04-25T10:25:19Z" level=info msg="connection establishing at: 10.1.231.252:3260"'])).toEqual(['mount']);
    // (a device path through the iSCSI port names a device, not a login)
    expect(stagesOf(['I0506 09:00:59.074969       1 storageService.go:333] isVolumeInUse: findmnt /dev/disk/by-path/ip-10.200.0.10:3260-iscsi-iqn.2002-03.com.example:01-lun-1'])).not.toEqual(['mount']);
    expect(stagesOf([
      'E0506 11:24:19.883272       1 zfs_util.go:635] destroy: volume zfspv-pool/pvc-b605df95 is not present, skipping',
      'I0506 11:24:19.904479       1 volume.go:169] Got delete event for ZV zfspv-pool/pvc-b605df95',
      "E0506 11:24:19.904710       1 volume.go:50] zfsvolume 'openebs/pvc-b605df95' has been deleted",
    ])).toEqual(['delete', 'delete', 'delete']);
    expect(stagesOf(['E1203 08:11:02.000000    4012 csi_mounter.go:460] failed to clean mount dir [/var/lib/kubelet/pods/38c5/volumes/kubernetes.io~csi/pvc-6d04/mount]: directory not empty'])).toEqual(['unmount']);
    // (the same error's tail, where a terminal wrapped it)
    expect(stagesOf(['0cd-13ca4a40535f/volumes/kubernetes.io~csi/pvc-6d0427a3-849f-4097-aaa4-807f07ca724b/mount: directory not empty'])).toEqual(['unmount']);
    expect(stagesOf(['I0211 16:31:12.590001       1 controller.go:294] zfs: trying volume creation zroot/data/pvc-659eafda'])).toEqual(['provision']);
    // external-provisioner reads the selected node's CSINode for the topology of a volume it provisions
    expect(stagesOf(['failed to provision volume with StorageClass "hcloud-volumes": error generating accessibility requirements: error getting CSINode for selected node "node-2": csinodes.storage.k8s.io "node-2" not found'])).toEqual(['provision']);
  });
});

describe('summary of a flow that recovered', () => {
  it('seed 000: the early "not attached" errors were retried; the flow did not stop there', () => {
    const text = readFileSync(new URL('../../src/data/seeds/seed-000.log', import.meta.url), 'utf8')
      .split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t')[1]).join('\n');
    const r = explainText(text, knowledge);
    expect(r.summary.errors).toBeGreaterThan(0);
    expect(r.summary.stoppedAt).toBeNull();
    expect(r.summary.verdict).toMatch(/followed by informational lines \(retried/);
    expect(r.summary.lastHealthy?.stage).toBe('mount');
  });
});

describe('knowledge', () => {
  it('every message format compiles, strict and loose, and matches what the machines print', () => {
    for (const m of knowledge.messages) {
      for (const f of m.formats) {
        expect(() => new RegExp(f.pattern, 's'), m.id).not.toThrow();
        expect(() => new RegExp(f.loose, 's'), m.id).not.toThrow();
      }
    }
    expect(knowledge.messages.length).toBeGreaterThan(150);
    expect(knowledge.messages.filter((m) => m.step).length).toBeGreaterThan(100);
  });
});

describe('bad input', () => {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  it('refuses empty, blank, binary and non-UTF-8 input with a clear message', () => {
    expect(() => decodeInput(new Uint8Array())).toThrow(ExplainInputError);
    expect(() => decodeInput(enc('\n\n  \n'))).toThrow(/blank/);
    expect(() => decodeInput(new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x00]))).toThrow(/binary/);
    expect(() => decodeInput(new Uint8Array([0x49, 0x30, 0xff, 0xfe, 0x41, 0x0a, 0xc3]))).toThrow(/UTF-8/);
  });
  it('reads UTF-16 with a byte-order mark and UTF-8 with a BOM', () => {
    const s = 'I0111 06:58:14.257783       1 csi_handler.go:267] Starting detach operation for "x"';
    const u16 = new Uint8Array(2 + s.length * 2);
    u16[0] = 0xff; u16[1] = 0xfe;
    for (let i = 0; i < s.length; i++) u16[2 + i * 2] = s.charCodeAt(i);
    expect(decodeInput(u16)).toBe(s);
    expect(decodeInput(new Uint8Array([0xef, 0xbb, 0xbf, ...enc(s)]))).toBe(s);
  });
  it('a 5 MB line is read (cut for matching) with a note, not a crash', () => {
    const line = 'E0101 00:00:00.000000       1 x.go:1] MountVolume.MountDevice failed ' + 'x'.repeat(5 * 1024 * 1024);
    const r = explainText(line + '\nsecond line', knowledge);
    expect(r.lines.length).toBe(2);
    expect(r.lines[0]!.explanation).toMatch(/only its first/);
    expect(r.lines[0]!.stage).toBe('mount');
  });
});

describe('what makes a line what it is (rules from the twenty-second blind set, 1062-1101)', () => {
  const U = '7f8ea9b2-dbe2-4cee-b6fa-0f5f71705444';
  it('ceph-csi\'s request id names the call that creates: pvc-<uid> is CreateVolume\'s, snapshot-<uid> CreateSnapshot\'s (utils.go getReqID)', () => {
    expect(stagesOf([
      `E0216 20:15:38.416004       1 utils.go:136] ID: 1096 Req-ID: pvc-${U} GRPC error: rpc error: code = Aborted desc = an operation with the given Volume ID pvc-${U} already exists`,
      `E0216 20:16:40.427998       1 controllerserver.go:239] ID: 1098 Req-ID: pvc-${U} an operation with the given Volume ID pvc-${U} already exists`,
      `E0216 20:16:41.001000       1 controllerserver.go:1200] ID: 1099 Req-ID: snapshot-${U} an operation with the given Snapshot ID snapshot-${U} already exists`,
      // a node call's request id is the volume id: the rule does not reach it
      'E0216 20:16:42.001000       1 utils.go:136] ID: 1101 Req-ID: 0001-0009-rook-ceph-0000000000000001-15b866e8-ca95-11ec-bbe3-22919942180f GRPC error: rpc error: code = Internal desc = rbd: map failed',
    ])).toEqual(['provision', 'provision', 'snapshot', 'mount']);
  });

  it('a provisioning that failed is the provisioning, whatever its error names; a share\'s subdirectory made is CreateVolume\'s, removed DeleteVolume\'s', () => {
    expect(stagesOf([
      'failed to provision volume with StorageClass "sc-snapshot": error getting handle for DataSource Type VolumeSnapshot by Name snap-1: error getting snapshot snap-1 from api server: the server could not find the requested resource',
    ])).toEqual(['provision']);
    expect(stagesOf(['E1122 16:36:41.400529       1 controllerserver.go:120] failed to make subdirectory: mkdir /tmp/pvc-1/pvc-1: read-only file system'])).toEqual(['provision']);
    expect(stagesOf(['E1122 16:36:41.400529       1 controllerserver.go:220] failed to delete subdirectory: unlinkat /tmp/pvc-1/pvc-1: device or resource busy'])).toEqual(['delete']);
  });

  it('a provisioner\'s helper pod named after its operation (create-pvc-/delete-pvc-<uid>) gives its records that stage; its start-up stays other', () => {
    expect(stagesOf([
      `delete-pvc-${U} csi-lvm-delete I0317 15:16:03.001000       1 main.go:38] starting csi-lvmplugin-provisioner`,
      `delete-pvc-${U} csi-lvm-delete E0317 15:16:03.105274       1 deletelv.go:83] unable to umount /dev/csi-lvm/pvc-${U} from /tmp/csi-lvm/pvc-${U}`,
      `helper-pod-create-pvc-${U} helper-pod I0317 15:16:04.000000       1 setup.go:10] mkdir -p /opt/local-path-provisioner/pvc-${U}`,
    ])).toEqual(['other', 'delete', 'provision']);
  });

  it('a mount table row is a command\'s output, not the middle of the record before it', () => {
    expect(stagesOf([
      'E0317 15:16:03.105274       1 node.go:83] unable to umount /var/lib/kubelet/pods/x/volumes/kubernetes.io~csi/pvc-1/mount',
      'udev on /tmp/csi-lvm/pvc-df8b3c9c-57d0-4830-abac-2cdce07429de type devtmpfs (rw,nosuid,relatime,mode=755)',
    ])).toEqual(['unmount', 'other']);
  });

  it('start-up lines, pod sync lines and HTTP access logs are no volume\'s step', () => {
    expect(stagesOf([
      'I0726 18:15:46.323763   23682 kubelet.go:1772] SyncLoop (DELETE, "api"): "nginx-pod1_default(e7f98a41-724f-11e7-b450-f8bc12550954)"',
      "I0315 14:41:50.284324       1 mount_linux.go:282] Detected umount with safe 'not mounted' behavior",
      'I0315 14:41:50.284546       1 main.go:140] Listening for connection on address: &net.UnixAddr{Name:"/csi/csi.sock", Net:"unix"}',
      '{"host":"k3s-m3","level":"debug","message":"setting default identity volume_expansion caps","service":"democratic-csi"}',
      '10.244.0.254 - - [16/Jul/2020:02:24:40 +0000] "GET /v1/volumes/pvc-45ce9820-3478-4a48-92a2-453faa84e39c HTTP/1.1" 200 4642 "" "Go-http-client/1.1"',
    ])).toEqual(['other', 'other', 'other', 'other', 'other']);
  });

  it('an Events table\'s cells on lines of their own, and a kubectl plugin\'s command, are the page\'s, not records', () => {
    const r = explainText(['Warning', 'FailedMount', 'Source', 'kubelet pool-18f82-krhyi', 'Count', 'attachdetach-controller',
      'kubectl mayastor -n openebs delete volume-snapshot 8b7061d4', 'kc apply -f nfs.storageclass.yaml'].join('\n'), knowledge).lines;
    expect(r.slice(2).map((l) => [l.kind, l.stage])).toEqual(Array(6).fill(['decoration', 'other']));
  });
});

describe('what makes a line what it is (rules from the twenty-third blind set, 1102-1141)', () => {
  it('a warning that reports a failure is no start-up chatter, even at the top of a container\'s log', () => {
    expect(stagesOf([
      '$ kubectl logs -n rook-ceph csi-rbdplugin-abcde csi-rbdplugin',
      'W0503 03:57:07.621582 2218477 rbd_attach.go:469] ID: 10 Req-ID: 0001-0009-rook-ceph-0000000000000001-15b866e8-ca95-11ec-bbe3-22919942180f rbd: map error an error (exit status 2) occurred while running rbd',
    ])).toEqual(['other', 'mount']);
  });

  it('an indented logfmt record starts a record of its own; its Identity call is the handshake', () => {
    expect(stagesOf([
      '    time="2023-07-07T14:49:46Z" level=info msg="CreateSnapshot: req: {\\"name\\":\\"snapshot-1\\",\\"source_volume_id\\":\\"pvc-1\\"}"',
      '    time="2023-07-07T14:49:46Z" level=info msg="GetPluginInfo: req: {}"',
    ])).toEqual(['snapshot', 'other']);
  });

  it('a node plugin never attaches: its "attachment" words are the staging\'s; the kubelet\'s "Volume detached" ends the teardown', () => {
    expect(stagesOf(['vsphere-csi-node-tjchq vsphere-csi-node E1014 10:53:21.889747       1 node.go:69] Failed to verify volume attachment. Error: rpc error: code = Internal desc = disk not found'])).toEqual(['mount']);
    expect(stagesOf(['Nov 30 16:21:10 m3 d8-kubelet-forker[1977858]: I1130 16:21:10.822076 1977863 reconciler.go:319] Volume detached for volume "secret-1" ...'])).toEqual(['unmount']);
  });

  it('an RBD image removed is a deletion; a program started or the configuration it loaded is start-up', () => {
    expect(stagesOf(['2018-05-24 05:23:13.688230 I | exec: Running command: rbd rm replicapool/pvc-592d3eaf-5f12-11e8-a036-525400123456 --cluster=rook-ceph'])).toEqual(['delete']);
    expect(stagesOf(['time="2025-06-23T15:02:39Z" level=debug msg="Provisioner started"', 'time="2025-06-23T15:02:39Z" level=debug msg="Applied config: {\\"nodePathMap\\":[]}"'])).toEqual(['other', 'other']);
  });

  it('HTML a post wraps a log in, a tool\'s version command and its report, and grpc-go\'s channel logging are no step', () => {
    const r = explainText(['E0101 00:00:00.000000       1 controller.go:1] failed to expand pvc: rpc error', '</details>', 'kbcli version', 'Kubernetes: v1.26.7-gke.500', 'KubeBlocks: 0.6.3-beta.0'].join('\n'), knowledge).lines;
    expect(r.slice(1).map((l) => [l.kind, l.stage])).toEqual(Array(4).fill(['decoration', 'other']));
    expect(stagesOf(['W0523 07:21:44.769244 1784671 logging.go:59] [core] [Channel #133 SubChannel #134] grpc: addrConn.createTransport failed to connect to {Addr: "/var/lib/kubelet/plugins_registry/kadalu-reg.sock"}'])).toEqual(['other']);
  });

  it('a zsh prompt before a command ends the record above it; commands run by hand (oc adm drain, gcloud) are no step', () => {
    const r = explainText(['I0507 22:58:48.469969   15004 node_register.go:67] Registration Server started at: /registration/driver.longhorn.io-reg.sock',
      'nthomas-macbookpro4% kubectl -n longhorn-system logs longhorn-csi-plugin-kqtfr longhorn-csi-plugin'].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['log', 'register'], ['decoration', 'other']]);
    expect(stagesOf(['gcloud compute instances detach-disk node-1 --disk pvc-1 --zone us-east1-b', 'oc --as system:admin adm drain --force --ignore-daemonsets node-1'])).toEqual(['other', 'other']);
  });

  it('a caption naming a container starts its log: the registrar\'s connection lines register, the liveness probe\'s are no step', () => {
    const still = 'W0929 09:13:00.949026    3304 connection.go:173] Still connecting to unix:///csi/csi.sock';
    expect(stagesOf(['[node-driver-registrar container]', still, '[liveness-probe container]', still])).toEqual(['other', 'register', 'other', 'other']);
    // ("[snip]" or "Events:" name no container: the registrar's log goes on)
    expect(stagesOf(['[node-driver-registrar container]', still, '[snip]', still])).toEqual(['other', 'register', 'other', 'register']);
    const r = explainText(['csi-snapshotter logs:', 'I0101 00:00:00.000000       1 main.go:100] Version: v6.3.0'].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.component])).toEqual([['decoration', null], ['log', 'external-snapshotter']]);
  });

  it('the registrars\' "Attempting to open a gRPC connection" makes a paste their log: the old driver-registrar\'s connection lines register', () => {
    expect(stagesOf(['I0818 15:07:15.573273       1 main.go:75] Attempting to open a gRPC connection with: %!q(*string=0xc4202c8120)',
      'I0818 15:07:15.573364       1 connection.go:68] Connecting to /csi/csi.sock', 'I0818 15:07:15.573651       1 connection.go:95] Still trying, connection is CONNECTING',
      'I0423 07:21:15.502335       1 connection.go:92] Connected'])).toEqual(Array(4).fill('register'));
  });

  it('a driver\'s whole log: its start-up words "registered" are set-up, its NodeGetInfo answer registers', () => {
    expect(stagesOf(['$ kubectl -n longhorn-system logs longhorn-csi-plugin-kqtfr longhorn-csi-plugin', '2021/05/07 22:58:47 proto: duplicate proto type registered: VersionResponse',
      'time="2021-05-07T22:58:47Z" level=info msg="CSI Driver: driver.longhorn.io csiVersion: 0.3.0, registered with manager URL http://longhorn-backend:9500/v1"',
      '2022/06/05 07:36:43 NodeGetInfo request'])).toEqual(['other', 'other', 'other', 'register']);
    // (Go protobuf's start-up warning, wherever it is pasted)
    expect(stagesOf(['2021/05/07 22:58:47 proto: duplicate proto type registered: VersionResponse'])).toEqual(['other']);
  });

  it('Rust env_logger records ("[2020-07-07T14:42:15Z DEBUG crate::module] …") are records of their own, in their program\'s operation', () => {
    const r = explainText(['[2020-07-07T14:38:29Z DEBUG mayastor_agent::node] NodeGetInfo request: ID=mayastor://node-1/10.0.0.1:10124, max volumes=0',
      '[2020-07-07T14:42:15Z DEBUG mayastor_agent::node] Staging volume f9d999e4 to /var/lib/kubelet/plugins/kubernetes.io/csi/pv/pvc-f9d999e4/globalmount',
      '[2020-07-07T14:42:15Z DEBUG mayastor_agent::node] URI is iscsi://10.0.0.1:3260/iqn.2019-05.io.openebs:nexus-f9d999e4/0'].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['log', 'register'], ['log', 'mount'], ['log', 'mount']]);
    // (after a line that ends with a colon, whose next lines would continue it)
    const after = explainText(['I0101 00:00:00.000000       1 node.go:1] NodeGetInfo response:', '[2020-07-07T14:42:15Z DEBUG mayastor_agent::node] Staging volume f9d999e4'].join('\n'), knowledge).lines;
    expect(after.map((l) => [l.kind, l.stage])).toEqual([['log', 'register'], ['log', 'mount']]);
  });

  it('a program\'s look at mounts while it tears a volume down is the teardown\'s; mounting words or a device connected are not', () => {
    expect(stagesOf(['2023-01-12T00:15:35.727Z stdout F new request - driver: NodeCsiDriver method: NodeUnpublishVolume call: {"volume_id":"test2"}',
      '2023-01-12T00:15:35.727Z stdout F executing mount command: findmnt --mountpoint /local/csi/per-alloc/c4b07999/test2/rw-file-system-single-node-writer --output source,target,fstype'])).toEqual(['unmount', 'unmount']);
    expect(stagesOf(['2023-01-12T00:15:35.727Z stdout F new request - driver: NodeCsiDriver method: NodeUnpublishVolume call: {"volume_id":"test2"}',
      '2023-01-12T00:15:36.727Z stdout F mounting device /dev/sdb at /var/lib/kubelet/plugins/kubernetes.io/csi/pv/pvc-1/globalmount'])).toEqual(['unmount', 'mount']);
  });

  it('a Python traceback is one error: the CSI call a frame is in decides it, and the line that announced it', () => {
    expect(stagesOf(['[2022-12-28 16:28:02,045] ERROR [_server - 453:_call_behavior] - Exception calling application: [1]', 'Traceback (most recent call last):',
      '  File "/kadalu/lib/python3.10/site-packages/grpc/_server.py", line 443, in _call_behavior', '    response_or_iterator = behavior(argument, context)',
      '  File "/kadalu/nodeserver.py", line 154, in NodeUnpublishVolume', '    unmount_volume(request.target_path)', 'kadalulib.CommandException: [1]']))
      .toEqual(Array(7).fill('unmount'));
  });

  it('nestedpendingoperations\' failure whose error names no operation is the one last started on that volume, its panic dump too', () => {
    const r = stagesOf(['I0131 20:18:19.990091  100500 reconciler.go:237] "operationExecutor.AttachVolume started for volume \\"pvc-1\\" (UniqueName: \\"kubernetes.io/csi/hostpath.csi.k8s.io^eb64\\") from node \\"n1\\""',
      'E0131 20:18:19.990255  100500 nestedpendingoperations.go:335] Operation for "{volumeName:kubernetes.io/csi/hostpath.csi.k8s.io^eb64 podName: nodeName:}" failed. No retries permitted until 2022-01-31 20:18:21.990235908 +0000 UTC m=+35.744556450 (durationBeforeRetry 2s). Error: recovered from panic "runtime error: invalid memory address or nil pointer dereference". (err=<nil>) Call stack:',
      'goroutine 1278 [running]:']);
    expect(r).toEqual(['attach', 'attach', 'attach']);
  });

  it('client-go\'s request throttling is no step; LVM\'s lvcreate and LINSTOR\'s new volume definition provision (lvcreate -s snapshots)', () => {
    expect(stagesOf(['request.go:530 Throttling request took 1.385373635s, request: PATCH:https://10.254.0.1:443/apis/storage.k8s.io/v1beta1/volumeattachments/csi-5321e820'])).toEqual(['other']);
    expect(stagesOf(['{"level":"info","ts":"2024-01-18T12:58:10Z","msg":"invoking LVM command","args":["lvcreate","-n","381debf8","-L","10737418240b","-W","y","-y","myvg1"]}'])).toEqual(['provision']);
    expect(stagesOf(['{"level":"info","msg":"invoking LVM command","args":["lvcreate","-s","-n","snap-1","myvg1/381debf8"]}'])).toEqual(['snapshot']);
    expect(stagesOf(["17:16:50.675 [grizzly-http-server-1] INFO  LINSTOR/Controller - SYSTEM - New volume definition with number '0' of resource definition 'pvc-cc2085b3' created."])).toEqual(['provision']);
  });

  it('a container\'s whole log: a line that names what it does to a volume in lower case ("Created volumesnapshot …") ends its start-up', () => {
    expect(stagesOf(['+ kubectl logs velero-856875585-56zg5 --previous', 'time="2022-08-24T06:13:27Z" level=info msg="Created volumesnapshot ns/velero-data-1-zplvr" backup=velero/test-backup'])).toEqual(['other', 'snapshot']);
  });

  it('a Markdown table\'s separator row is no step; a cloud permission to create a disk and a provisioner-only class parameter are provisioning', () => {
    const r = explainText(['|   |   | 2021-12-20 15:17:00 | I1220 14:17:00.293051       1 controller.go:1] Resize volume succeeded', '-- | -- | -- | --'].join('\n'), knowledge).lines;
    expect([r[1]!.kind, r[1]!.stage]).toEqual(['decoration', 'other']);
    expect(stagesOf(["Reason: forbidden, Message: Required 'compute.disks.create' permission for 'projects/x/zones/europe-north1-a/disks/pvc-1'",
      'W0514 19:04:58.931166       1 controller.go:139] "fstype" is deprecated, please use "csi.storage.k8s.io/fstype" instead'])).toEqual(['provision', 'provision']);
    expect(stagesOf(['time="2021-08-24T11:51:02Z" level=debug msg="Process Manager: wait for process pvc-1-e-05efba0b to shutdown before unregistering process"'])).toEqual(['other']);
  });

  it('kubectl\'s --timestamps stamp (nanoseconds) is no journald host and program: mount-utils\' tail lines continue their record; journald\'s own microsecond stamp still names host and program', () => {
    const r = explainText(['2024-02-01T10:00:01.100200300Z E0201 10:00:01.100100   4242 mount_linux.go:232] Mount failed: exit status 32',
      '2024-02-01T10:00:01.100200400Z Mounting command: mount', '2024-02-01T10:00:01.100200500Z Output: mount.nfs: access denied by server'].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['log', 'mount'], ['continuation', 'mount'], ['continuation', 'mount']]);
    const j = explainText('2024-02-01T10:00:01.100200+0000 node-7 kubelet[4242]: E0201 10:00:01.100100    4242 mount_linux.go:232] Mount failed: exit status 32', knowledge).lines[0]!;
    expect(j.host).toBe('node-7');
  });

  it('a log whose beginning the post cut ("...", "・・・" under the logs command) has no start-up: its first operation line keeps its stage', () => {
    const log = ['$ kubectl logs -n kube-system csi-node-abcde', 'I0306 02:29:46.599234       1 resizefs_linux.go:71] Device /dev/nvme2n1 resized successfully'];
    expect(stagesOf([log[0]!, '・・・', log[1]!]).at(-1)).toBe('resize');
    expect(stagesOf([log[0]!, '...', log[1]!]).at(-1)).toBe('resize');
    // (the whole log, from its start: a line before any call is the driver's set-up, even with lines cut further on)
    expect(stagesOf(log).at(-1)).toBe('other');
    expect(stagesOf([...log, '...', 'I0306 02:29:47.000000       1 utils.go:111] GRPC call: /csi.v1.Identity/Probe'])[1]).toBe('other');
  });

  it('a driver\'s gRPC response carrying a volume with its capacity is CreateVolume\'s, whatever call its previous lines made (csi-driver-nfs\'s interceptor wording too)', () => {
    expect(stagesOf(['I0704 06:45:55.937277       1 utils.go:118] GRPC response: volume:<capacity_bytes:5368709120 volume_id:"share#pvc-9" >'])).toEqual(['provision']);
    expect(stagesOf(['I0704 06:45:48.032711       1 utils.go:111] GRPC call: /csi.v1.Identity/Probe', 'I0704 06:45:48.032760       1 utils.go:118] GRPC response: ready:<value:true >',
      'I0704 06:45:55.937277       1 utils.go:118] GRPC response: volume:<capacity_bytes:5368709120 volume_id:"share#pvc-9" >'])).toEqual(['other', 'other', 'provision']);
  });

  it('the kernel\'s SMB client failing a mount (cifs_mount, its session set-up\'s status) is the mount', () => {
    expect(stagesOf(['Mar  1 10:00:00 node-3 kernel: [ 812.1] CIFS: VFS: cifs_mount failed w/return code = -13',
      'Mar  1 10:00:00 node-3 kernel: [ 812.0] CIFS: Status code returned 0xc000006d STATUS_LOGON_FAILURE'])).toEqual(['mount', 'mount']);
  });

  it('a volume populator filling a claim (its Events, "Unable to populate volume") provisions it, even from a snapshot; the kubelet\'s desired state of world populator does not', () => {
    expect(stagesOf(['  Warning  ExamplePopulatorSourceMissing  2m  example-populator  Unable to populate volume: source "src" not found',
      '  Normal   ExamplePopulatorPVCCreated     1m  example-populator  Populator pvc created from snapshot snap-1',
      '  Normal   ExamplePopulatorFinished       1m  example-populator  Populator finished'])).toEqual(['provision', 'provision', 'provision']);
    expect(stagesOf(['I0111 14:58:08.000000    1200 volume_manager.go:270] "The desired_state_of_world populator starts"'])).toEqual(['other']);
  });

  it('csi-resizer\'s sync of a claim it does not resize is no resize ("No need to resize PVC", its PV not found); the same first line before a resize is the resize\'s', () => {
    expect(stagesOf(['I1211 20:56:09.458921       1 controller.go:291] Started PVC processing "ns/claim-a"', 'W1211 20:56:09.459842       1 controller.go:318] PV "" bound to PVC ns/claim-a not found',
      'I1211 20:56:09.699758       1 controller.go:291] Started PVC processing "ns/claim-a"', 'I1211 20:56:09.704959       1 controller.go:334] No need to resize PVC "ns/claim-a"'])).toEqual(['other', 'other', 'other', 'other']);
    expect(stagesOf(['I0214 10:00:00.000001       1 controller.go:284] "Started PVC processing for resize controller" key="ns/claim-b"', 'I0214 10:00:00.000002       1 controller.go:332] "No need to resize PVC" PVC="ns/claim-b"'])).toEqual(['other', 'other']);
    expect(stagesOf(['I0123 05:46:43.696297       1 controller.go:295] Started PVC processing "ns/claim-c"', 'I0123 05:46:44.857962       1 controller.go:483] Resize volume succeeded for volume "pvc-c", start to update PV\'s capacity'])).toEqual(['resize', 'resize']);
  });

  it('a kubelet operation\'s message deeper than the line above continues it, and so does one under a header still waiting for its message', () => {
    expect(explainText(['E0926 05:48:39.937675    4344 nestedpendingoperations.go:335] Operation for "{volumeName:kubernetes.io/csi/x^1 podName:p nodeName:}" failed. Error:',
      '      UnmountVolume.TearDown failed for volume "v" (UniqueName: "kubernetes.io/csi/x^1") pod "p" (UID: "p") : rpc error'].join('\n'), knowledge).lines.map((l) => l.kind)).toEqual(['log', 'continuation']);
    const r = explainText(['Sep 26 05:48:39 cluster-md-84b6b9494b-wqgkp kubelet[4344]: E0926 05:48:39.937675    4344 nestedpendingoperations.go:335]',
      'Operation for "{volumeName:kubernetes.io/csi/x^1 podName:p nodeName:}" failed. No retries permitted until 2022-09-26 05:50:41.937645825 +0000 UTC m=+1.7 (durationBeforeRetry 2m2s).'].join('\n'), knowledge).lines;
    expect(r.map((l) => l.kind)).toEqual(['log', 'continuation']);
  });

  it('a kubelet operation\'s message quoted at the same indent as the line above it is a record of its own, not that line\'s continuation', () => {
    expect(stagesOf(['    I0121 17:33:54.751693       1 csi_handler.go:424] Starting attach operation for "csi-5c52" with a long enough text to look like a wrapped record line here',
      '    "MountVolume.SetUp succeeded for volume \\"pvc-1\\" (UniqueName: \\"kubernetes.io/csi/pd.csi.storage.gke.io^vol-1\\") pod \\"p\\""'])).toEqual(['attach', 'mount']);
  });

  it('a prompt\'s glyph before a kubectl command ("Ø k describe …") makes it a session line; a pretty-printed JSON hit\'s fields other than its message are no step', () => {
    expect(stagesOf(['Ø k describe volumeattachments csi-123'])).toEqual(['other']);
    expect(stagesOf(['      "message": "I1013 02:29:43.020384       1 csi_handler.go:248] Attaching \\"csi-97\\"",', '      "kubernetes": {', '        "pod_name": "csi-attacher-5d4cc8cfc8-hd4nb",',
      '        "labels": {', '          "app": "csi-attacher"', '        },'])).toEqual(['attach', 'other', 'other', 'other', 'other', 'other']);
  });

  it('start-up and cache lines, a v0 plugin\'s NodeGetId, a removed socket, the kubelet\'s structured SyncLoop lines: each as what it is', () => {
    expect(stagesOf(['I0108 18:11:54.200139      1 controller_utils.go:1027] Waiting for caches to sync for snapshot-controller controller',
      'I0108 18:11:54.300430      1 controller_utils.go:1034] Caches are synced for snapshot-controller controller'])).toEqual(['other', 'other']);
    expect(stagesOf(['time="2019-12-05T16:49:30Z" level=info msg="removing socket" socket=/csi/csi.sock', 'time="2019-12-05T16:49:31Z" level=info msg="node get id called" method=node_get_id',
      'time="2019-12-05T16:49:57Z" level=info msg="node get capabilities called" method=node_get_capabilities'])).toEqual(['other', 'register', 'other']);
    // (right after the kubelet's teardown lines too: the pod's deletion is no step of the volume's)
    expect(stagesOf(['Mar 12 00:29:44 node-7 kubelet[4242]: I0312 00:29:44.600000 4242 reconciler_common.go:161] "operationExecutor.UnmountVolume started for volume \\"data\\" (UniqueName: \\"kubernetes.io/csi/x^1\\") pod \\"p\\" (UID: \\"p\\") "',
      'Mar 12 00:29:44 node-7 kubelet[4242]: I0312 00:29:44.655173 4242 kubelet.go:2126] "SyncLoop DELETE" source="api" pods=["default/web-0"]'])).toEqual(['unmount', 'other']);
  });

  it('a VolumeAttachment deleted is a detach; resizing a mounted file system is the resize, and a look at the device right after it too; removing a pod\'s mount directory is the teardown\'s', () => {
    expect(stagesOf(['{"level":"info","msg":"volume attachment deleted","pod":"mysql-0","namespace":"mysql"}'])).toEqual(['detach']);
    expect(stagesOf(['time="2025-07-01T09:31:24Z" level=info msg="Resizing mounted volume" filesystem=/export/pvc-1 volume=pvc-1',
      'time="2025-07-01T09:31:24Z" level=info msg="Device /dev/mapper/pvc-1 contains filesystem of format ext4" filesystem=/export/pvc-1'])).toEqual(['resize', 'resize']);
    expect(stagesOf(['W0914 19:29:15.491424    1953 csi_mounter.go:354] kubernetes.io/csi: skipping mount dir removal, path does not exist [/var/lib/kubelet/pods/p/volumes/kubernetes.io~csi/pvc-1/mount]'])).toEqual(['unmount']);
  });

  it('a volume health monitor\'s Events are no step; a backend\'s snake-case operation takes its stage; a new backend resource still CREATING is the provisioning', () => {
    expect(stagesOf(['  Warning  VolumeConditionAbnormal  2m (x3 over 4m)  csi-pv-monitor-controller-disk.csi.example.com  The volume is not mounted on the node',
      '  Normal   VolumeConditionNormal    1m                csi-pv-monitor-controller-disk.csi.example.com  The volume is healthy again'])).toEqual(['other', 'other']);
    expect(stagesOf(['I0301 10:00:00.000001       1 backend.go:88] storage api call op=delete_volume pool=fast name=pvc-1',
      'I0301 10:00:00.000002       1 backend.go:90] storage api answer {"op":"delete_volume_reply","ret":0}',
      'I0301 10:00:00.000003       1 backend.go:88] storage api call op=create_volume pool=fast name=pvc-2 size=10G',
      'I0301 10:00:00.000004       1 backend.go:88] storage api call op=extend_volume pool=fast name=pvc-2 size=20G'])).toEqual(['delete', 'delete', 'provision', 'resize']);
    expect(stagesOf(['I0301 10:00:05.000000       1 cloud.go:120] "WaitForShareReady" share="sh-0123" status="CREATING"',
      'I0301 10:00:05.000000       1 cloud.go:120] "WaitForSnapshotReady" snapshot="snap-0123" status="CREATING"'])).toEqual(['provision', 'snapshot']);
  });

  it('the node\'s multipath reloads (in camel case too), the kernel\'s SMB socket error and Longhorn\'s engine iSCSI frontend (its attach) are read as what they are', () => {
    expect(stagesOf(['2024-03-10 11:03:43,31011 INFO    [281680] [SVC:14;6005] (device_connectivity_helper_scsigeneric.go:574) - ReloadMultipath: reload finished',
      '2024-03-10 11:03:43,31011 DEBUG    [281680] [SVC:14;6005] (device_connectivity_helper_scsigeneric.go:675) - Waiting for dm to exist'])).toEqual(['mount', 'mount']);
    expect(stagesOf(['Jul  5 09:34:03 node-3 kernel: [ 1193.623715] CIFS: VFS: Error connecting to socket. Aborting operation.'])).toEqual(['mount']);
    expect(stagesOf(['[pvc-a475fe89-3cf0-4d02-b944-e3c81b166f6e-e-0] time="2026-01-26T10:40:35Z" level=warning msg="Failed to discover" func="iscsidev.(*Device).StartInitator"'])).toEqual(['attach']);
  });

  it('a driver\'s identity server answers between the calls it serves: its own lines are no volume operation\'s', () => {
    expect(stagesOf([
      'I0708 02:09:39.452064       1 utils.go:106] GRPC call: /csi.v1.Controller/ControllerUnpublishVolume',
      'I0708 02:09:39.457618       1 controllerserver.go:381] Trying to detach volume disk-1 from node node-1',
      'I0708 02:09:41.778693       1 utils.go:106] GRPC call: /csi.v1.Identity/GetPluginCapabilities',
      'I0708 02:09:41.778708       1 utils.go:107] GRPC request: ',
      'I0708 02:09:41.778798       1 identityserver.go:59] Using default capabilities',
    ])).toEqual(['detach', 'detach', 'other', 'other', 'other']);
  });

  it('a request\'s fields printed one a line ("key value") are its record\'s, across a blank line and when the paste cut the record\'s first line', () => {
    expect(stagesOf([
      'I0704 06:48:13.388036       1 utils.go:111] GRPC call: /csi.v1.Node/NodePublishVolume',
      'I0704 06:48:13.388095       1 nodeserver.go:76] target /var/lib/kubelet/pods/a8/volumes/kubernetes.io~csi/pvc-1/mount',
      'fstype ext4',
      '',
      'readonly false',
      'volumeId rg#account#pvc-1',
      'context map[skuName:Standard_LRS storage.kubernetes.io/csiProvisionerIdentity:1562-8081-file.csi.azure.com]',
    ])).toEqual(['mount', 'mount', 'mount', 'other', 'mount', 'mount', 'mount']);
    // (no header: the fields that say a stage decide it for the run)
    expect(stagesOf(['protocol fuse', '', 'volumeId account-container-blob', 'context map[containerName:c1 protocol:fuse]',
      'mountflags [-o allow_other]', 'mountOptions [-o allow_other --file-cache-timeout-in-seconds=120]'])).toEqual(['mount', 'other', 'mount', 'mount', 'mount', 'mount']);
    // (the stage most fields say: two mount fields outvote one provisioner identity)
    expect(stagesOf(['context map[storage.kubernetes.io/csiProvisionerIdentity:1562-8081-file.csi.azure.com]', 'mountflags [-o allow_other]', 'mountOptions [-o allow_other]']))
      .toEqual(['mount', 'mount', 'mount']);
    // (two fields are no run, and one field that says a stage does not decide the others')
    expect(stagesOf(['volumeId account-container-blob', 'mountflags [-o allow_other]'])).toEqual(['other', 'mount']);
    expect(stagesOf(['protocol fuse', 'volumeId account-container-blob', 'mountflags [-o allow_other]'])).toEqual(['other', 'other', 'mount']);
    // (a blank line after a record's own line, not after one of its fields, ends it: what follows is not its field)
    expect(stagesOf(['I0704 06:48:13.388095       1 nodeserver.go:76] target /var/lib/kubelet/pods/a8/volumes/kubernetes.io~csi/pvc-1/mount', '', 'volumeId rg#account#pvc-1']))
      .toEqual(['mount', 'other', 'other']);
  });

  it('a kubectl table header of any resource is decoration; a driver registering its own gRPC services, kubelet admission and pod start-up metrics and a deployment\'s progress check are no step; the kernel\'s FS-Cache loading is the mount\'s', () => {
    expect(stagesOf([
      '  Normal   SnapshotReady   16s    snapshot-controller  Snapshot default/snap-1 is ready to use.',
      '',
      'k get vsc',
      'NAME                       READYTOUSE   RESTORESIZE   DELETIONPOLICY   DRIVER\t\tVOLUMESNAPSHOTCLASS   VOLUMESNAPSHOT   AGE',
    ])).toEqual(['snapshot', 'other', 'other', 'other']);
    expect(stagesOf(['time="2023-04-15T03:31:19Z" level=info msg="StartService - Registering node service"'])).toEqual(['other']);
    expect(stagesOf([
      'I1210 14:05:40.612266    3806 reconciler_common.go:253] "operationExecutor.VerifyControllerAttachedVolume started for volume \\"pvc-1\\" (UniqueName: \\"kubernetes.io/csi/driver.longhorn.io^pvc-1\\") pod \\"web-0\\" (UID: \\"u1\\") " pod="default/web-0"',
      'I1210 14:05:42.131364    3806 pod_startup_latency_tracker.go:102] "Observed pod startup duration" pod="default/web-0" podStartSLOduration=2.1',
      'I1210 14:12:17.656694    3806 topology_manager.go:210] "Topology Admit Handler" podUID="u2" podNamespace="default" podName="web-1"',
    ])).toEqual(['attach', 'other', 'other']);
    expect(stagesOf(['I0805 19:36:33.157358       6 progress.go:231] Queueing up deployment "webapp" for a progress check after 599s'])).toEqual(['other']);
    expect(stagesOf(["Jul 25 10:40:45 aks-node-1 kernel: [  276.870718] FS-Cache: Netfs 'nfs' registered for caching"])).toEqual(['mount']);
  });

  it('a `get` row whose last columns are only two spaces apart is a row; df\'s and lsblk\'s headers are decoration; mount(8)\'s "wrong fs type" alone is the mount\'s', () => {
    expect(stagesOf([
      '$ kubectl get volumesnapshot',
      'NAME               READYTOUSE   SOURCEPVC   RESTORESIZE   SNAPSHOTCLASS             SNAPSHOTCONTENT                                    CREATIONTIME   AGE',
      'data-snapshot      true         data        1Gi           csi-rbdplugin-snapclass   snapcontent-34476204-a14a-4d59-bfbc-2bbba695652c  3h50m          3h51m',
    ])).toEqual(['other', 'other', 'other']);
    expect(stagesOf(['Filesystem      Size  Used Avail Use% Mounted on', '/dev/sdc         15G   46M   15G   1% /mnt/disk'])).toEqual(['other', 'other']);
    expect(explainText('NAME   MAJ:MIN RM  SIZE RO TYPE MOUNTPOINTS', knowledge).lines[0]!.kind).toBe('decoration');
    expect(stagesOf(['wrong fs type, bad option, bad superblock on /dev/longhorn/vol-1, missing codepage or helper program, or other error.'])).toEqual(['mount']);
  });
});

describe('the ninety-sixth to ninety-eighth sets\' rules', () => {
  it('the e2e framework\'s Event dump logged through klog is the Event it prints, of a known reason or not', () => {
    const r = explainText([
      'I0708 23:56:17.876854 110698 dump.go:53] At 2025-07-08 23:53:56 +0000 UTC - event for pod-1: {default-scheduler } Scheduled: Successfully assigned volume-expand-8465/pod-1 to worker2',
      'I0708 23:56:17.876863 110698 dump.go:53] At 2025-07-08 23:53:57 +0000 UTC - event for pod-1: {attachdetach-controller } SuccessfulAttachVolume: AttachVolume.Attach succeeded for volume "pvc-2"',
      'I0708 23:56:17.876870 110698 dump.go:53] At 2025-07-08 23:53:58 +0000 UTC - event for pod-1: {kubelet worker2} Pulled: Container image "busybox" already present on machine',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage, l.messageId])).toEqual([['event', 'other', 'Scheduled'], ['event', 'attach', 'SuccessfulAttachVolume'], ['event', 'other', 'Pulled']]);
    expect(r[1]!.time).toBe('2025-07-08 23:53:57');
    // (the dump prints no type: an unknown reason's severity is read from its name)
    expect(r[2]!.severity).toBe('I');
    expect(explainText('I0708 23:56:17.876880 110698 dump.go:53] At 2025-07-08 23:53:59 +0000 UTC - event for pod-1: {kubelet worker2} FailedPostStartHook: Exec lifecycle hook ([/bin/sh -c sleep 1]) for Container "app" in Pod "pod-1" failed', knowledge).lines[0]!.severity).toBe('W');
  });

  it('an AWS volume awaited in the state asked for is that step; legacy cloud start-up, ADC volumesInUse bookkeeping and a volume registered with its storage are no step; an iSCSI device path awaited is the staging', () => {
    expect(stagesOf([
      'I0914 01:09:27.874542       5 aws.go:1362] Waiting for volume "vol-1" state: actual=detached, desired=attached',
      'I0914 01:09:31.874542       5 aws.go:1362] Waiting for volume "vol-1" state: actual=attaching, desired=detached',
      'I0714 18:15:23.662401       1 cloud.go:713] "Waiting for volume state" volumeID="vol-2" actual="detached" desired="attached"',
    ])).toEqual(['attach', 'detach', 'attach']);
    expect(stagesOf([
      'I1031 18:05:14.977240    1604 openstack_instances.go:57] Claiming to support Instances',
      'I1207 08:32:33.843056       1 attach_detach_controller.go:525] processVolumesInUse for node "node-1"',
      '{"level":"info","time":"2023-03-22T20:37:53.187050892Z","caller":"migration/migration.go:553","msg":"Registering volume: \\"[ds1] kubevols/k-1.vmdk\\" using backingDiskURLPath :\\"https://vc/folder/kubevols/k-1.vmdk\\""}',
    ])).toEqual(['other', 'other', 'other']);
    expect(stagesOf([
      'DEBUG: 2024/12/10 17:11:26 iscsi.go:160: waitForPathToExistImpl (/dev/disk/by-path/ip-10.0.0.9:3260-iscsi-iqn.2000-01.com.example:array-lun-4)',
      'DEBUG: 2024/12/10 17:11:26 iscsi.go:170: [0] os stat device: exist false device /dev/disk/by-path/ip-10.0.0.9:3260-iscsi-iqn.2000-01.com.example:array-lun-4',
      'DEBUG: 2024/12/10 17:11:27 iscsi.go:175: Device not found for: /dev/disk/by-path/ip-10.0.0.9:3260-iscsi-iqn.2000-01.com.example:array-lun-4',
    ])).toEqual(['mount', 'mount', 'mount']);
  });
});

describe('the ninety-ninth to hundred-and-first sets\' rules', () => {
  it('the PV controller\'s isVolumeReleased is its deletion\'s; SELinux relabelling a volume is the mount\'s; runc\'s mount units and a driver\'s metrics server are no step', () => {
    expect(stagesOf([
      'I1023 23:49:18.644247       1 pv_controller.go:1326] isVolumeReleased[pvc-1]: volume is released',
      'I1023 23:49:18.644258       1 pv_controller.go:1308] isVolumeReleased[pvc-2]: ClaimRef is still valid, volume is not released',
    ])).toEqual(['delete', 'delete']);
    expect(stagesOf([
      'Nov 08 07:23:35 node-1 kernel: audit: type=1400 audit(1667892215.599:201711): avc:  denied  { relabelfrom } for  pid=1543 comm="containerd" name="data" dev="nvme1n1p1" ino=135068 scontext=system_u:system_r:container_runtime_t:s0 tcontext=system_u:object_r:unlabeled_t:s0 tclass=dir permissive=0',
      'Nov 08 07:23:37 node-1 systemd[1]: run-containerd-runc-k8s.io-edb5da62c927d4e3-runc.KK81qm.mount: Deactivated successfully.',
    ])).toEqual(['mount', 'other']);
    expect(stagesOf(['I0903 10:21:31.657847       1 main.go:111] set up prometheus server on :29645'])).toEqual(['other']);
  });
});

describe('the hundred-and-second to hundred-and-fourth sets\' rules', () => {
  it('the populator failing to resolve a pod\'s volume waits for the mount; the local static provisioner and local-path-provisioner provision and delete; a describe field after a tab is a field', () => {
    expect(stagesOf([
      'E1227 02:10:37.045352    1625 desired_state_of_world_populator.go:339] Error processing volume "data" for pod "web-0_default(u1)": error processing PVC default/data-web-0: PVC is being deleted',
      'E0401 05:09:31.107293    7988 desired_state_of_world_populator.go:353] Failed to add volume "home" (specName: "pvc-1") for pod "u2" to desiredStateOfWorld. err=failed to get Plugin from volumeSpec for volume "pvc-1" err=no volume plugin matched',
      'E0601 10:00:00.000001    1234 desired_state_of_world_populator.go:302] "Error processing volume" err="error processing PVC default/data-web-1: PVC is not bound" pod="default/web-1" volumeName="data"',
    ])).toEqual(['mount', 'mount', 'mount']);
    expect(stagesOf([
      'I0910 13:31:41.208017       1 common.go:334] StorageClass "local-disks" configured with MountDir "/mnt/disks", HostDir "/mnt/disks", VolumeMode "Filesystem", FsType "", BlockCleanerCommand ["/scripts/quick_reset.sh"]',
      'I0213 06:30:44.378851       1 discovery.go:304] Found new volume of volumeMode "Filesystem" at host path "/mnt/disks/vol1" with capacity 53687091200, creating Local PV "local-pv-1d14680"',
      'I0213 06:30:44.396471       1 discovery.go:337] Created PV "local-pv-1d14680" for volume at "/mnt/disks/vol1"',
      'I1116 00:11:23.355655       1 deleter.go:88] Deleting PV "local-pv-dd4a78d5" contents at hostpath "/mnt/disks/vol2", mountpath "/mnt/disks/vol2"',
      'E1116 00:11:23.355675       1 deleter.go:53] Error cleaning PV "local-pv-dd4a78d5": open /mnt/disks/vol2: no such file or directory',
    ])).toEqual(['other', 'provision', 'provision', 'delete', 'delete']);
    // (each alone too: in a paste, a line of the same program takes its neighbour's step)
    expect(stagesOf(['I0213 06:30:44.396471       1 discovery.go:337] Created PV "local-pv-1d14680" for volume at "/mnt/disks/vol1"'])).toEqual(['provision']);
    expect(stagesOf(['E1116 00:11:23.355675       1 deleter.go:53] Error cleaning PV "local-pv-dd4a78d5": open /mnt/disks/vol2: no such file or directory'])).toEqual(['delete']);
    expect(stagesOf(['time="2024-04-15T21:31:29Z" level=info msg="create the helper pod helper-pod-create-pvc-1cfed247-e7e4-4da8-b7d7-ffcefe3288c7 into kube-system"'])).toEqual(['provision']);
    expect(stagesOf(['time="2023-04-12T10:04:50Z" level=info msg="Start of helper-pod-create-pvc-6a843d61-8a2a-4b7f-99fe-ea308c41f187 logs"'])).toEqual(['provision']);
    expect(stagesOf(['Volumes:', '  nfs-data:', '    Type:\tNFS (an NFS mount that lasts the lifetime of a pod)'])).toEqual(['other', 'other', 'other']);
  });
});

describe('the hundred-and-fifth to hundred-and-seventh sets\' rules', () => {
  it('a shell prompt starts the output of its command, no piece of the record before it; an atomic writer\'s failure is the SetUp\'s; a driver\'s VolumeStats is no step', () => {
    const head = 'E0324 04:21:58.987894    1232 nestedpendingoperations.go:301] Operation for "{volumeName:kubernetes.io/csi/driver.example.com^vol-1 podName:u1 nodeName:}" failed. No retries permitted until 2022-03-24 04:21:59.487840694 +0000 UTC m=+1184606.200514039 (durationBeforeRetry 500ms). Error: "UnmapVolume.UnmapBlockVolume failed for volume \\"data\\" (UniqueName: \\"kubernetes.io/csi/driver.example.com^vol-1\\") pod \\"u1\\" (UID: \\"u1\\") : blkUtil.DetachFileDevice failed. globalUnmapPath:/var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/vol-1/dev, podUID: u1, bindMount: true: failed to unmount linkPath /var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/vol-1/dev/u1: ';
    // (the record ends after a colon, as a paste cut there: a plain line after it would be its next piece)
    const r = explainText([head, '$ sudo losetup -a', '/dev/loop1: [65029]:5505042 (/ (deleted))', 'root@node-1:~# lsblk'].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['unmount', 'other', 'other', 'other']);
    expect(r.slice(1).map((l) => l.kind)).not.toContain('continuation');
    expect(explainText([head, 'root@node-1:~# lsblk'].join('\n'), knowledge).lines[1]!.kind).not.toBe('continuation');
    expect(stagesOf(['E0610 19:40:09.607009    8520 configmap.go:249] Error creating atomic writer: stat /var/lib/kubelet/pods/u2/volumes/kubernetes.io~configmap/config: no such file or directory'])).toEqual(['mount']);
    expect(stagesOf(['I0516 15:55:17.080510       1 nodeserver.go:302] VolumeStats: stats on targetpath/volumeID /var/lib/kubelet/pods/u3/volumes/kubernetes.io~csi/pvc-3/mount'])).toEqual(['other']);
  });
});

describe('the hundred-and-eighth to hundred-and-tenth sets\' rules', () => {
  it('the snapshot controller\'s start-up checks are no step; the kubelet\'s old volume wait is the mount\'s even cut; a container shell\'s prompt starts its output; a Longhorn clone is a provisioning', () => {
    expect(stagesOf(['I1220 15:19:51.452949       1 main.go:229] Metrics path successfully registered at /metrics'])).toEqual(['other']);
    expect(stagesOf(['E1220 15:20:21.454414       1 main.go:122] Failed to list v1 volumesnapshots with error=Get "https://10.96.0.1:443/apis/snapshot.storage.k8s.io/v1/volumesnapshots?limit=1": dial tcp 10.96.0.1:443: i/o timeout'])).toEqual(['other']);
    expect(stagesOf(['E0418 14:14:22.803642     874 kubelet.go:1635] Unable to mount volumes for pod "task-pv-pod_default(u1)": timeout expired waiting for volumes to attach'])).toEqual(['mount']);
    expect(stagesOf(['failedMount\ttimeout expired waiting for volumes to attach/mount for pod "default"/"web-0". list of'])).toEqual(['mount']);
    const r = explainText(['E1030 10:00:00.000001       1 utils.go:199] ID: 12 Req-ID: pvc-1 GRPC error: rpc error: code = Internal desc = failed to get image: ', 'sh-4.4# rbd info csi-vol-aee99548 --pool=replicapool'].join('\n'), knowledge).lines;
    expect(r[1]!.kind).not.toBe('continuation');
    expect(stagesOf(['  Normal   VolumeCloneInitiated  18m (x2 over 18m)  longhorn-volume-controller  source volume pvc-test1, snapshot snapshot-28290e7f'])).toEqual(['provision']);
  });
});

describe('the hundred-and-eleventh and hundred-and-twelfth sets\' rules', () => {
  it('the scheduler\'s volume binder placing unbound claims is the provisioning; a pod whose claims are all bound has nothing of it', () => {
    expect(stagesOf(['I1130 00:52:54.196214       5 scheduler_binder.go:355] AssumePodVolumes for pod "default/db-0", node "node-1"'])).toEqual(['provision']);
    expect(stagesOf(['I1130 00:52:54.196337       5 scheduler_binder.go:428] BindPodVolumes for pod "default/db-0", node "node-1"'])).toEqual(['provision']);
    expect(stagesOf(['I1130 00:52:54.196241       5 scheduler_binder.go:714] PVC "default/data-db-0" is not bound'])).toEqual(['provision']);
    // (wrapped by the post: the record is read whole, its words "binding-stress" and all)
    expect(stagesOf(['I0509 16:03:26.551001  155310 scheduler_binder.go:372] Found matching PV "pv-stress-459" for PVC "volume-binding-stress2bcc/pvc-stress-495" on node "node-1" for pod "volume-bindin',
      'g-stress2bcc/pod99"'])).toEqual(['provision', 'provision']);
    expect(stagesOf(['I1130 00:52:54.196306       5 scheduler_assume_cache.go:328] Assumed v1.PersistentVolume "local-pv-b5cf5b33", version 814'])).toEqual(['provision']);
    expect(stagesOf(['I1130 00:52:54.196331       5 volume_binding.go:257] Trying to bind volumes for pod "default/db-0"'])).toEqual(['provision']);
    expect(stagesOf(['I1130 00:52:54.196289       5 scheduler_binder.go:194] AssumePodVolumes: getBindVolumeToClaim for PV "local-pv-b5cf5b33", PVC "data-db-0".'])).toEqual(['provision']);
    expect(stagesOf(['I1130 00:53:01.000001       5 scheduler_binder.go:365] AssumePodVolumes for pod "default/db-1", node "node-2": all PVCs bound and nothing to do'])).toEqual(['other']);
  });
});

describe('upstream\'s own lines, read from the source at v1.20.5 and 1.36 (the sweep of test/explain/upstream-lines.tsv)', () => {
  it('the attach/detach controller\'s attacherDetacher, the kubelet\'s wait for a pod\'s volumes and its DSW populator\'s claim lookups', () => {
    expect(stagesOf(['I1206 10:15:42.123528       1 reconciler.go:291] Starting attacherDetacher.AttachVolume for volume "pvc-1" (UniqueName: "kubernetes.io/csi/ebs.csi.aws.com^vol-1") from node "node-1"'])).toEqual(['attach']);
    expect(stagesOf(['I1206 10:15:42.123528       1 reconciler.go:369] "attacherDetacher.AttachVolume failed to start" err="operation already exists" volumeName="kubernetes.io/csi/ebs.csi.aws.com^vol-1" nodeName="node-1"'])).toEqual(['attach']);
    expect(stagesOf(['I1206 10:15:42.123528       1 reconciler.go:203] "attacherDetacher.DetachVolume started" volumeName="kubernetes.io/csi/ebs.csi.aws.com^vol-1"'])).toEqual(['detach']);
    expect(stagesOf(['I1206 10:15:42.123528    2143 volume_manager.go:409] "Waiting for volumes to attach and mount for pod" pod="default/web-0"'])).toEqual(['mount']);
    expect(stagesOf(['I1206 10:15:42.123528    2143 desired_state_of_world_populator.go:552] Found bound PV for PVC (ClaimName "default"/"data-web-0" pvcUID 8c1f2d3e): pvName="pvc-1"'])).toEqual(['mount']);
    expect(stagesOf(['I1206 10:15:42.123528    2143 desired_state_of_world_populator.go:570] Extracted volumeSpec (0xc001) from bound PV (pvName "pvc-1") and PVC (ClaimName "default"/"data-web-0" pvcUID 8c1f2d3e)'])).toEqual(['mount']);
    expect(stagesOf(['I1206 10:15:42.123528    2143 desired_state_of_world_populator.go:441] "Found PVC" PVC="default/data-web-0"'])).toEqual(['mount']);
    // (another program\'s "Found PVC for …" is none of it)
    expect(stagesOf(['time="2022-02-27T11:44:06Z" level=info msg="Found PVC for requested volume pvc-1."'])).not.toEqual(['mount']);
  });
  it('the kubelet\'s subpath cleanup, block map and device checks; mount-utils\' disk probe and growth; the plugin watcher and CSINode', () => {
    expect(stagesOf(['I1206 10:15:42.123528    2143 subpath_linux.go:226] Cleaning up subpath mounts for /var/lib/kubelet/pods/u1/volume-subpaths/pvc-1'])).toEqual(['unmount']);
    expect(stagesOf(['I1206 10:15:42.123528    2143 subpath_linux.go:316] Successfully cleaned subpath directory /var/lib/kubelet/pods/u1/volume-subpaths/pvc-1/app/0'])).toEqual(['unmount']);
    expect(stagesOf(['I1206 10:15:42.123528       1 mount_linux.go:429] Attempting to determine if disk "/dev/nvme1n1" is formatted using blkid with args: ([-p -s TYPE -s PTTYPE -o export /dev/nvme1n1])'])).toEqual(['mount']);
    expect(stagesOf(['I1206 10:15:42.123528       1 mount_linux.go:470] Disk /dev/nvme1n1 detected partition table type: gpt'])).toEqual(['mount']);
    expect(stagesOf(['I1206 10:15:42.123528    2143 desired_state_of_world_populator.go:363] "Skip file system resize check for the volume, as the volume is mounted as readonly" pod="default/web-0" volumeName="pvc-1"'])).toEqual(['resize']);
    expect(stagesOf(['I1206 10:15:42.123528    2143 volume_path_handler.go:230] RemoveMapPath: mapPath /var/lib/kubelet/pods/u1/volumeDevices/kubernetes.io~csi'])).toEqual(['unmount']);
    expect(stagesOf(['I1206 10:15:42.123528    2143 volume_path_handler.go:96] MapDevice: linkName u1'])).toEqual(['mount']);
    expect(stagesOf(['E1206 10:15:42.123528    2143 operation_generator.go:1738] DeviceOpened failed for volume "pvc-1" (UniqueName: "kubernetes.io/csi/ebs.csi.aws.com^vol-1") on node "node-1" : exit status 32'])).toEqual(['unmount']);
    expect(stagesOf(['I1206 10:15:42.123528    2143 plugin_watcher.go:215] Removing socket path /var/lib/kubelet/plugins_registry/ebs.csi.aws.com-reg.sock from desired state cache'])).toEqual(['register']);
    expect(stagesOf(['W1206 10:15:42.123528    2143 nodeinfomanager.go:568] Exceeded max supported attach limit value, truncating it to 2147483647'])).toEqual(['register']);
  });
  it('the PV controller\'s binding, its refusals and its external deleter; the scheduler\'s binder; the provisioner library\'s PV store and reschedule', () => {
    expect(stagesOf(['I1206 10:15:42.123528       1 pv_controller.go:895] updating PersistentVolume[pvc-1]: binding to "default/data-web-0"'])).toEqual(['provision']);
    expect(stagesOf(['I1206 10:15:42.123528       1 pv_controller.go:1065] updating PersistentVolume[pvc-1]: rolled back'])).toEqual(['provision']);
    expect(stagesOf(['I1206 10:15:42.123528       1 pv_controller.go:1130] "Volume status after binding" volumeName="pvc-1" volumeStatus="Bound"'])).toEqual(['provision']);
    expect(stagesOf(['W1206 10:15:42.123528       1 pv_controller.go:1533] Mount options are not supported by the provisioner but claim "default/data-web-0"\'s StorageClass "slow" has mount options [debug]'])).toEqual(['provision']);
    expect(stagesOf(['I1206 10:15:42.123528       1 pv_controller.go:1338] "External deleter for volume requested, ignoring" volumeName="pvc-1"'])).toEqual(['delete']);
    expect(stagesOf(['I1206 10:15:42.123528       1 controller.go:1629] "Volume deletion ignored" PV="pvc-1" reason="not Released"'])).toEqual(['delete']);
    expect(stagesOf(['W1206 10:15:42.123528       1 controller.go:1173] failed to get storageclass: fast, proceeding to delete without secrets. storageclass.storage.k8s.io "fast" not found'])).toEqual(['delete']);
    // (the provisioner undoing a volume it could not finish is the provisioning's)
    expect(stagesOf(['E1206 10:15:42.123528       1 controller.go:847] failed to delete partly provisioned PV: the server was unable to return a response in the time allotted'])).not.toEqual(['delete']);
    // (the binder's and the PV store's words as a paste gives them without their klog header, and with it)
    expect(stagesOf(['FindPodVolumes for pod "default/web-0", node "node-1"'])).toEqual(['provision']);
    expect(stagesOf(['PVC "default/data-web-0" is fully bound to PV "pvc-1"'])).toEqual(['provision']);
    expect(stagesOf(['No matching volumes for Pod "default/web-0", PVC "default/data-web-0" on node "node-1"'])).toEqual(['provision']);
    expect(stagesOf(['I1206 10:15:42.123528       1 scheduler_binder.go:841] Found matching volumes for pod "default/web-0" on node "node-1"'])).toEqual(['provision']);
    // (a binder line with no words of its own is its file\'s; one whose words name a step is that step\'s)
    expect(stagesOf(['I1206 10:15:42.123528       1 binder.go:666] "All PVCs for pod are bound" pod="default/web-0"'])).toEqual(['provision']);
    expect(stagesOf(['Trying to save persistentvolume "pvc-1"'])).toEqual(['provision']);
    expect(stagesOf(['persistentvolume "pvc-1" saved'])).toEqual(['provision']);
    expect(stagesOf(['Error creating provisioned PV object for claim default/data-web-0: etcdserver: request timed out. Deleting the volume.'])).toEqual(['provision']);
    expect(stagesOf(['I1206 10:15:42.123528       1 volume_store.go:242] "Cleaning volume succeeded" volume="pvc-1"'])).toEqual(['provision']);
    expect(stagesOf(['"Volume rescheduled because" err="context deadline exceeded" PVC="default/data-web-0"'])).toEqual(['provision']);
    expect(stagesOf(['W1206 10:15:42.123528       1 controller.go:1358] requested volume size 21474836480 is greater than the size 10737418240 for the source snapshot snap-1. Volume plugin needs to handle volume expansion.'])).toEqual(['provision']);
    expect(stagesOf(['E1206 10:15:42.123528       1 controller.go:981] the source volume pvc-1 for PVC default/clone-of-data is not bound'])).toEqual(['provision']);
    expect(stagesOf(['I1206 10:15:42.123528       1 expand_controller.go:290] Error setting PVC default/data-web-0 in progress with error : the object has been modified'])).toEqual(['resize']);
  });
});

describe('upstream\'s in-tree plugins (v1.20.5 pkg/volume/*, the legacy cloud providers)', () => {
  it('a cloud\'s kind of disk named between the verb and "volume" is still a creation or a deletion', () => {
    expect(stagesOf(['I1206 10:15:42.123456    2143 aws_util.go:113] Successfully created EBS Disk volume aws://us-east-1a/vol-0a1b'])).toEqual(['provision']);
    expect(stagesOf(['Error creating cinder volume: Expected HTTP response code [202] when accessing [POST https://cinder:8776/v3/volumes]'])).toEqual(['provision']);
    expect(stagesOf(['I1206 10:15:42.123456    2143 rbd.go:701] successfully created rbd image "kubernetes-dynamic-pvc-1"'])).toEqual(['provision']);
    expect(stagesOf(['I1206 10:15:42.123456    2143 gce_util.go:89] Successfully deleted GCE PD volume pvc-1'])).toEqual(['delete']);
    // (but not a snapshot, a pod or an attachment made on the way)
    expect(stagesOf(['creating snapshot image replicapool/csi-snap-1'])).not.toEqual(['provision']);
    expect(stagesOf(['Created container csi-provisioner'])).toEqual(['other']);
  });
  it('the node\'s WaitForAttach, and the node-side attach and detach of iSCSI, FC and RBD disks, are the mount and the teardown', () => {
    expect(stagesOf(['I1206 10:15:42.123456    2143 attacher.go:182] Checking AWS Volume "aws://us-east-1a/vol-0a1b" is attached at devicePath "/dev/xvdba".'])).toEqual(['mount']);
    expect(stagesOf(['I1206 10:15:42.123456    2143 attacher.go:263] Checking GCE PD "pvc-1" is attached.'])).toEqual(['mount']);
    expect(stagesOf(['E1206 10:15:42.123456    2143 attacher.go:249] Error: could not find attached Cinder disk "3f2a" (path: ""): <nil>'])).toEqual(['mount']);
    expect(stagesOf(['I1206 10:15:42.123456    2143 attacher.go:129] rbd: successfully wait for attach volume (spec: pvc-1, pool: kube, image: kubernetes-dynamic-pvc-1) at /dev/rbd0'])).toEqual(['mount']);
    expect(stagesOf(['I1206 10:15:42.123456    2143 iscsi_util.go:393] AttachDisk: scanning SCSI host 3 LUN 0'])).toEqual(['mount']);
    expect(stagesOf(['I1206 10:15:42.123456    2143 attacher.go:174] iscsi: successfully detached disk: /dev/sdc'])).toEqual(['unmount']);
    expect(stagesOf(['I1206 10:15:42.123456    2143 attacher.go:251] rbd: successfully detach device /dev/rbd0'])).toEqual(['unmount']);
    expect(stagesOf(['E1206 10:15:42.123456    2143 fc_util.go:283] fc: detachFCDisk failed. device: /dev/sdd err: exit status 1'])).toEqual(['unmount']);
    expect(stagesOf(['E1206 10:15:42.123456    2143 nfs.go:281] /var/lib/kubelet/pods/u1/volumes/kubernetes.io~nfs/pv-1 is still mounted, despite call to unmount().  Will try again next sync loop.'])).toEqual(['mount']);
  });
});

describe('upstream\'s Event reasons on the volume path', () => {
  it('the PV controller\'s binding Events are the provisioning\'s, its recycling the deletion\'s, the kubelet\'s fsGroup and file system ones the mount\'s', () => {
    const row = (type: string, reason: string, from: string, msg: string) => `  ${type}  ${reason}  12s (x3 over 40s)  ${from}  ${msg}`;
    // (each a reason the explainer knows, with its explanation, not a guess from the message's words)
    const known = (line: string) => explainText(line, knowledge).lines[0]!.match;
    for (const [reason, msg] of [['ClaimLost', 'Bound claim has lost its PersistentVolume.'], ['ClaimMisbound', 'Two claims are bound to the same volume'], ['FailedBinding', 'no persistent volumes available for this claim and no storage class is set'], ['FailedMountOnFilesystemMismatch', 'MountVolume failed for volume "pv-1"']]) {
      expect(known(row('Warning', reason!, 'persistentvolume-controller', msg!)), reason).toBe('event');
    }
    expect(stagesOf([row('Warning', 'VolumeMismatch', 'persistentvolume-controller', 'Cannot bind to requested volume "pv-1": requested PV is too small')])).toEqual(['provision']);
    expect(stagesOf([row('Warning', 'ClaimLost', 'persistentvolume-controller', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!')])).toEqual(['provision']);
    expect(stagesOf([row('Warning', 'ClaimMisbound', 'persistentvolume-controller', 'Two claims are bound to the same volume, this one is bound incorrectly')])).toEqual(['provision']);
    expect(stagesOf([row('Normal', 'FailedBinding', 'persistentvolume-controller', 'volume "pv-1" already bound to a different claim.')])).toEqual(['provision']);
    expect(stagesOf([row('Normal', 'VolumeRecycled', 'persistentvolume-controller', 'Volume recycled')])).toEqual(['delete']);
    expect(stagesOf([row('Normal', 'RecyclerPod', 'persistentvolume-controller', 'Recycler pod: Successfully assigned default/recycler-for-pv-1 to node-1')])).toEqual(['delete']);
    expect(stagesOf([row('Warning', 'VolumeFailedRecycle', 'persistentvolume-controller', 'Recycle failed: pod failed')])).toEqual(['delete']);
    expect(stagesOf([row('Warning', 'AlreadyMountedVolume', 'kubelet', 'The requested fsGroup is 1000, but the volume pv-1 has GID 2000. The volume may not be shareable.')])).toEqual(['mount']);
    expect(stagesOf([row('Warning', 'FailedMountOnFilesystemMismatch', 'kubelet', 'MountVolume failed for volume "pv-1" : failed to mount the volume as "xfs", it already contains ext4')])).toEqual(['mount']);
  });
});

describe('a driver\'s call decides for the words of its lines (the operation, not what it undoes or checks on the way)', () => {
  it('an unmount inside a publish or a stage is the mount\'s; a snapshot check inside DeleteVolume the deletion\'s; a mount read inside NodeExpandVolume the resize\'s', () => {
    expect(stagesOf(['time="2024-12-06T10:15:42Z" level=warning msg="Failed to unmount targetPath /var/lib/kubelet/pods/u1/volumes/kubernetes.io~csi/pvc-1/mount: exit status 32" component=csi-node-server function=NodePublishVolume'])).toEqual(['mount']);
    expect(stagesOf(['I1206 10:15:42.100000       1 utils.go:195] GRPC call: /csi.v1.Node/NodePublishVolume', 'E1206 10:15:42.120000       1 node.go:212] Failed to unmount: exit status 32'])).toEqual(['mount', 'mount']);
    expect(stagesOf(['{"level":"info","time":"2024-12-06T10:15:42.100Z","caller":"vanilla/controller.go:1580","msg":"DeleteVolume: called with args {VolumeId:vol-1}"}',
      '{"level":"info","time":"2024-12-06T10:15:42.120Z","caller":"vanilla/controller.go:1648","msg":"no CNS snapshots found for volume: vol-1, the volume can be safely deleted"}'])).toEqual(['delete', 'delete']);
    expect(stagesOf(['time="2024-12-06T10:15:42Z" level=info msg="Volume pvc-1 on node node-1 successfully resized filesystem after mount" component=csi-node-server function=NodeExpandVolume'])).toEqual(['resize']);
    // (the teardown's own unmount stays the teardown's)
    expect(stagesOf(['time="2024-12-06T10:15:42Z" level=info msg="Unmounting volume pvc-1 from /var/lib/kubelet/pods/u1/volumes/kubernetes.io~csi/pvc-1/mount" component=csi-node-server function=NodeUnpublishVolume'])).toEqual(['unmount']);
  });
});

describe('the hundred-and-thirteenth to hundred-and-fifteenth sets\' rules', () => {
  it('a CSI-Addons call (replication, fencing, reclaim space, volume groups) is no step, nor what the driver prints serving it', () => {
    const r = stagesOf([
      'I0913 11:56:29.787215       1 utils.go:195] ID: 21 GRPC call: /fence.FenceController/UnfenceClusterNetwork',
      'I0913 11:56:29.788168       1 utils.go:206] ID: 21 GRPC request: {"cidrs":[{"cidr":"10.90.89.66/32"}],"parameters":{"clusterID":"rook-ceph"}}',
      'I0913 11:56:31.335384       1 cephcmds.go:105] ID: 21 command succeeded: ceph [osd blocklist range rm 10.90.89.66/32 --id csi-rbd-provisioner --keyfile=***stripped***]',
      'I0913 11:56:31.336029       1 utils.go:212] ID: 21 GRPC response: {}',
    ]);
    expect(r).toEqual(['other', 'other', 'other', 'other']);
    // (ceph-csi's journal lookup serving a replication call is none of CreateVolume's)
    expect(stagesOf([
      'I0816 10:51:09.662986       1 utils.go:195] ID: 23 Req-ID: 0001-0009-rook-ceph-0000000000000001-dc2ae0f8 GRPC call: /replication.Controller/PromoteVolume',
      'I0816 10:51:09.671059       1 omap.go:88] ID: 23 Req-ID: 0001-0009-rook-ceph-0000000000000001-dc2ae0f8 got omap values: (pool="replicapool", namespace="", name="csi.volume.dc2ae0f8"): map[csi.imageid:1 csi.imagename:csi-vol-dc2ae0f8 csi.volname:pvc-1]',
    ])).toEqual(['other', 'other']);
    // (a reclaim-space request names the staging path, as NodeStageVolume's does: the call it serves decides, even when the
    // interceptor's lines carry no call id and an earlier NodeStageVolume was logged by the same file)
    expect(stagesOf([
      'I0816 10:50:09.662986       1 utils.go:195] GRPC call: /csi.v1.Node/NodeStageVolume',
      'I0816 10:51:09.662986       1 utils.go:195] GRPC call: /reclaimspace.ReclaimSpaceNode/NodeReclaimSpace',
      'I0816 10:51:09.663087       1 utils.go:197] GRPC request: {"staging_target_path":"/var/lib/kubelet/plugins/kubernetes.io/csi/rbd.csi.ceph.com/abc/globalmount","volume_id":"0001-0009-rook-ceph-1"}',
    ]).slice(1)).toEqual(['other', 'other']);
    // (and the CSI call after it is its own again)
    expect(stagesOf([
      'I0816 10:51:09.662986       1 utils.go:195] ID: 23 GRPC call: /replication.Controller/PromoteVolume',
      'I0816 10:52:09.662986       1 utils.go:195] ID: 24 Req-ID: pvc-2 GRPC call: /csi.v1.Controller/CreateVolume',
      'I0816 10:52:09.671059       1 omap.go:88] ID: 24 Req-ID: pvc-2 got omap values: (pool="replicapool", namespace="", name="csi.volumes.default"): map[]',
    ])).toEqual(['other', 'provision', 'provision']);
  });
  it('Windows nodes: csi-proxy\'s SMB mapping is the staging, its removal the unstaging; a cmd prompt and dir\'s output are none', () => {
    expect(stagesOf(['I0313 18:59:51.774799   18360 server.go:56] calling NewSmbGlobalMapping with remote path "\\\\10.152.183.41\\pvc-1"'])).toEqual(['mount']);
    expect(stagesOf(['I0313 18:59:52.941139   18360 server.go:98] Remote \\10.152.183.41\\pvc-1 not mapped. Mapping now!'])).toEqual(['mount']);
    expect(stagesOf(['I0313 19:10:52.941139   18360 server.go:120] calling RemoveSmbGlobalMapping with remote path "\\\\10.152.183.41\\pvc-1"'])).toEqual(['unmount']);
    // (after the mount's Event the user looks at the node: dir's header lines are the listing's, not the mount's)
    const failed = '  Warning  FailedMount  4s (x8 over 67s)  kubelet, node000  MountVolume.MountDevice failed for volume "pvc-1" : azureDisk - mountDevice:FormatAndMount failed with exit status 1';
    expect(stagesOf([failed, ' azureuser@node000 C:\\Users\\azureuser>cd \\var\\lib\\kubelet\\plugins\\kubernetes.io\\azure-disk\\mounts\\m39'])).toEqual(['mount', 'other']);
    expect(stagesOf([failed, 'C:\\var\\lib\\kubelet>dir'])).toEqual(['mount', 'other']);
    expect(stagesOf([failed, ' Volume in drive C is Windows'])).toEqual(['mount', 'other']);
    expect(stagesOf([failed, ' Volume Serial Number is CA78-414E'])).toEqual(['mount', 'other']);
    expect(stagesOf([failed, ' Directory of C:\\var\\lib\\kubelet\\plugins\\kubernetes.io\\azure-disk\\mounts'])).toEqual(['mount', 'other']);
  });
  it('a projected volume\'s data is the mount\'s; Azure\'s attach/detach rate limit and a cephx user named after the provisioner are no step; local-path choosing a node\'s directory is the provisioning', () => {
    expect(stagesOf(['Nov 09 14:17:34 edge-1 edgecore[24377]: E1109 14:17:34.520376   24377 projected.go:201] Error preparing data for projected volume kube-api-access-x for pod default/web-0: failed to fetch token'])).toEqual(['mount']);
    expect(stagesOf(['I0914 18:42:34.226836    7372 azure.go:902] attach/detach disk operation rate limit QPS: 6.000000, Bucket: 10'])).toEqual(['other']);
    expect(stagesOf(['I0913 11:56:53.821075       1 cephcmds.go:105] ID: 22 command succeeded: ceph [osd blocklist range add 10.90.89.66/32 --id csi-rbd-provisioner --keyfile=***stripped***]'])).toEqual(['other']);
    expect(stagesOf(['time="2022-12-05T19:41:18Z" level=debug msg="config doesn\'t contain node node-1, use DEFAULT_PATH_FOR_NON_LISTED_NODES instead"'])).toEqual(['provision']);
  });
});

describe('the hundred-and-sixteenth to hundred-and-eighteenth sets\' rules', () => {
  it('the PV controller\'s later ExternalProvisioning wording is the provisioning; kubectl api-versions\' output is none; rbd create and Longhorn\'s Start and Remount Events are their steps', () => {
    const later = 'Waiting for a volume to be created either by the external provisioner \'linodebs.csi.linode.com\' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.';
    expect(stagesOf([later])).toEqual(['provision']);
    // (pasted alone, it is the Event it was recorded as)
    expect(explainText(later, knowledge).lines[0]!.match).toBe('event');
    expect(stagesOf(['I1202 02:26:18.510103       1 main.go:150] "Version" version="v1.12.0"', 'admissionregistration.k8s.io/v1', 'apiregistration.k8s.io/v1beta1', 'apps/v1']).slice(1)).toEqual(['other', 'other', 'other']);
    expect(stagesOf(['2017-09-11 21:37:04.057891 I | exec: Running command: rbd create replicapool/k8s-dynamic-pvc-4aae --size 10240 --cluster=rook'])).toEqual(['provision']);
    expect(stagesOf(['  Normal   Start    11m   longhorn-kubernetes-pv-controller  Persistent Volume pvc-1 started to use/reuse Longhorn volume pvc-1'])).toEqual(['provision']);
    expect(stagesOf(['  Normal   Remount  10m   longhorn-volume-controller         Volume pvc-1 requested remount at 2025-08-18T01:25:03Z'])).toEqual(['mount']);
  });
});

describe('the hundred-and-nineteenth to hundred-and-twenty-first sets\' rules', () => {
  it('a capitalised "Request:" before a text-format payload is read by its fields; KubeVirt\'s DataVolume is the provisioning; Longhorn\'s share-manager start-up is none; describe\'s indented label lines are decoration', () => {
    expect(stagesOf(['I0218 11:07:36.353840       1 controller.go:163] Create Volume Request: name:"pvc-1"  capacity_range:{required_bytes:1073741824}  volume_capabilities:{mount:{fs_type:"ext4"}  access_mode:{mode:SINGLE_NODE_WRITER}}'])).toEqual(['provision']);
    expect(stagesOf(['I0218 11:07:36.358648       1 controller.go:241] creating new DataVolume tenant-ns/pvc-1'])).toEqual(['provision']);
    const share = ['2023-05-21T10:01:42.980510087Z time="2023-05-21T10:01:42Z" level=info msg="starting nfs server, volume is ready for export" encrypted=false volume=pvc-1',
      '2023-05-21T10:01:42.980535693Z time="2023-05-21T10:01:42Z" level=info msg="Running NFS server!"',
      '2023-05-21T10:01:42.981006869Z time="2023-05-21T10:01:42Z" level=info msg="starting health check for volume" encrypted=false volume=pvc-1'];
    for (const l of share) expect(stagesOf(['2023-05-21T10:01:40.1Z time="2023-05-21T10:01:40Z" level=info msg="Volume pvc-1 mounted at /export/pvc-1"', l])[1], l).toBe('other');
    expect(stagesOf(['Labels:        app.kubernetes.io/component=database', '               app.kubernetes.io/component=persistent-volume-claim', '               app.kubernetes.io/managed-by=Helm'])).toEqual(['other', 'other', 'other']);
    // (a multi-line record's own key=value pieces, less indented, stay the record's)
    expect(explainText(['I0101 00:00:00.000000    1 mount_linux.go:150] Mount failed: exit status 1', '   flags=0x03fffffb'].join('\n'), knowledge).lines[1]!.kind).toBe('continuation');
  });
});

describe('the hundred-and-twenty-second to hundred-and-twenty-fourth sets\' rules', () => {
  it('a change of a volume\'s class is no step (its Events, the EBS driver\'s error) unless it serves a resize; grpc-go\'s dial failure is chatter; an umount by hand is the session', () => {
    expect(stagesOf(['  Normal  VolumeModify            18s   external-resizer disk.csi.azure.com   external resizer is modifying volume pvc-1 with vac premium-v2-fast'])).toEqual(['other']);
    expect(stagesOf(['  Normal  VolumeModifySuccessful  15s   external-resizer disk.csi.azure.com   external resizer modified volume pvc-1 with vac premium-v2-fast successfully'])).toEqual(['other']);
    expect(stagesOf(['I0619 14:21:19.361322       1 connection.go:201] GRPC error: rpc error: code = Internal desc = Could not modify volume "vol-1": operation error EC2: ModifyVolume, https response error StatusCode: 400'])).toEqual(['other']);
    expect(stagesOf(['failed to expand pvc with rpc error: code = Internal desc = Could not resize volume "vol-1": rpc error: code = Internal desc = Could not modify volume "vol-1": api error VolumeModificationRateExceeded'])).toEqual(['resize']);
    expect(stagesOf(['  addrConn.createTransport failed to connect to {/var/lib/kubelet/plugins_registry/ossplugin.csi.alibabacloud.com-reg.sock  <nil> 0 <nil>}. Err :connection error: desc = "transport: Error while dialing dial unix: connect: connection refused". Reconnecting...'])).toEqual(['other']);
    // (decided by its words, not by the attach its log viewer's garbled prefixes suggest: corpus 3328)
    expect(stagesOf(["ebs-csi-controller-85dd68f7b7-2kg26 ebs-plugin ebs-csi-controller-85dd68f7b7-2kg26      rpc error: code = Internal desc = Could not modify volume \"<volume-id>\": unable to modify AWS volume \"<volume-id>\": InvalidParameterValue: Invalid input: Must specify at least one of size, type, iops, throughput or multi-attach.", "ebs-csi-controller-85dd68f7b7-2kg26 volumemodifier ebs-plugin I0619 14:21:19.361322       1 connection.go:201] GRPC error: rpc error: code = Internal desc = Could not modify volume \"<volume-id>\": unable to modify AWS volume \"<volume-id>\": InvalidParameterValue: Invalid input: Must specify at least one of size, type, iops, throughput or multi-attach.", "                status code: 400, request id: <request-id>"])).toEqual(['other', 'other', 'other']);
    expect(stagesOf(['6月 12 10:00:00 node-1 kubelet[1234]: E0612 10:00:00.000000    1234 kubelet_volumes.go:140] orphaned pod "e5849d41" found, but volume paths are still present on disk', 'umount /var/lib/kubelet/pods/e5849d41/volumes/kubernetes.io~glusterfs/work'])).toEqual(['unmount', 'other']);
  });
});

describe('the hundred-and-twenty-fifth to hundred-and-twenty-seventh sets\' rules', () => {
  it('a driver\'s GetCapacity (storage-capacity tracking) is no step; the kubelet failing to remove an orphaned pod\'s directory is the teardown\'s', () => {
    // (after a CreateVolume of the same program: the capacity question is its own call)
    expect(stagesOf(['I0412 16:52:04.406134       1 controller.go:304] "CreateVolume: volume created" cluster="pve-cluster" volumeID="pve-cluster/pve-node-01/sata1/vm-9999-pvc-1" size=10',
      'I0412 16:52:04.411504       1 controller.go:589] "GetCapacity" region="pve-cluster" zone="pve-node-01" storageID="sata1"'])).toEqual(['provision', 'other']);
    expect(stagesOf(['E0715 10:00:00.000000    1234 kubelet_volumes.go:154] Failed to remove orphaned pod "3feec45e" dir; err: remove /var/lib/kubelet/pods/3feec45e/volumes/kubernetes.io~empty-dir/cache: device or resource busy'])).toEqual(['unmount']);
    expect(stagesOf(['Failed to remove orphaned pod "3feec45e" dir; err: remove /var/lib/kubelet/pods/3feec45e/volumes/kubernetes.io~empty-dir/cache: device or resource busy'])).toEqual(['unmount']);
  });
});

describe('the other sidecars\' and four more drivers\' own lines (test/explain/upstream-lines.tsv, stop 56)', () => {
  it('a snapshot restore a driver starts in CreateVolume is the provisioning; the resizer\'s size check after a node expansion is the resize; the registrar\'s flag check is the registration', () => {
    expect(stagesOf(['I1206 10:15:42.100000    2143 utils.go:195] GRPC call: /csi.v1.Controller/CreateVolume',
      'I1206 10:15:42.125194    2143 controller.go:166] "Successfully initiated snapshot restore" volumeId="pvc-1" snapshotID="snap-1"'])).toEqual(['provision', 'provision']);
    expect(stagesOf(['E1206 10:15:42.125193    2143 controller.go:163] "Failed to initiate snapshot restore" err="exit status 1" volumeId="pvc-1" snapshotID="snap-1"'])).toEqual(['provision']);
    expect(stagesOf(['E1206 10:15:42.125193    2143 controller.go:170] failed to start snapshot restore of pvc-1 from snap-1: exit status 1'])).toEqual(['provision']);
    expect(stagesOf(['I1206 10:15:42.124807       1 controller.go:453] "Capacity of pv and pvc" PV="pvc-1" pvCapacity="20Gi" PVC="default/data-0" pvcCapacity="10Gi"'])).toEqual(['resize']);
    expect(stagesOf(['E1206 10:15:42.125075       1 main.go:135] "kubelet-registration-path is a required parameter" err="flag not set"'])).toEqual(['register']);
  });

  it('a catalog template that is all argument (external-attacher v2\'s "{err}" at main.go:135) does not take another program\'s structured record at that file:line', () => {
    const [l] = explainText('E1206 10:15:42.125075       1 main.go:135] "Only one of `--health-port` and `--http-endpoint` can be set" err="invalid flags"', knowledge).lines;
    expect(l!.messageId).not.toBe('externalAttacher.probeFailed');
    // (nor a structured record without pairs)
    expect(explainText('E1206 10:15:42.125075       1 main.go:135] "LoggingConfiguration is invalid"', knowledge).lines[0]!.messageId).not.toBe('externalAttacher.probeFailed');
    // (its own printf line still is that message, a quoted text inside it or not)
    expect(explainText("E0410 08:00:00.000000       1 main.go:135] rpc error: code = Unavailable desc = connection error", knowledge).lines[0]!.messageId).toBe('externalAttacher.probeFailed');
    expect(explainText('E0410 08:00:00.000000       1 main.go:135] rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing dial unix /csi/csi.sock: connect: no such file or directory"', knowledge).lines[0]!.messageId).toBe('externalAttacher.probeFailed');
  });

  it('a node expansion\'s own teardown words (a driver unmounting the temporary mount it grew the file system through) are the resize', () => {
    // (the unmount half of callSide's NodeExpandVolume rule, which no test held: stop 55's mutation run)
    expect(stagesOf(['I0101 00:00:00.000000       1 utils.go:195] GRPC call: /csi.v1.Node/NodeExpandVolume',
      'I0101 00:00:00.100000       1 nodeserver.go:400] Unmounting the temporary mount /tmp/expand-1 of volume vol-1'])).toEqual(['resize', 'resize']);
    expect(stagesOf(['I0101 00:00:00.100000       1 nodeserver.go:400] Unmounting the temporary mount /tmp/expand-1 of volume vol-1'])).toEqual(['unmount']);
  });

  it('in the liveness probe\'s log, named by kubectl, the start-up it shares with the registrar is no registration', () => {
    expect(stagesOf(['Defaulted container "liveness-probe" out of: liveness-probe, node-driver-registrar, nfs',
      'I0528 03:23:59.037639       1 main.go:135] "Calling CSI driver to discover driver name"',
      'I0528 03:23:59.039000       1 main.go:143] "CSI driver name" driver="nfs.csi.k8s.io"',
      'I0528 03:23:59.039049       1 main.go:172] "ServeMux listening" address="localhost:29653"'])).toEqual(['other', 'other', 'other', 'other']);
    // (the container as its image names it, livenessprobe)
    expect(stagesOf(['$ kubectl -n kube-system logs csi-nfs-node-nwpqj -c livenessprobe',
      'I0528 03:23:59.037639       1 main.go:135] "Calling CSI driver to discover driver name"'])).toEqual(['other', 'other']);
    // (the registrar's own log, named so, is its registration)
    expect(stagesOf(['$ kubectl -n kube-system logs csi-nfs-node-nwpqj -c node-driver-registrar',
      'I0528 03:23:59.037639       1 main.go:135] "Calling CSI driver to discover driver name"',
      'I0528 03:23:59.039000       1 main.go:143] "CSI driver name" driver="nfs.csi.k8s.io"'])).toEqual(['other', 'register', 'register']);
  });
});

describe('the hundred-and-twenty-eighth to hundred-and-thirtieth sets\' rules', () => {
  it('the kubelet\'s dead-container deleter is no step, even right after a mount', () => {
    expect(stagesOf(['Apr 09 15:55:37 ip-192-168-75-136 kubelet[3801]: I0409 15:55:37.447140    3801 operation_generator.go:596] MountVolume.MountDevice succeeded for volume "pvc-1" (UniqueName: "kubernetes.io/aws-ebs/aws://ap-northeast-2a/vol-1") pod "web-1" (UID: "1b5d") device mount path "/var/lib/kubelet/plugins/kubernetes.io/aws-ebs/mounts/aws/ap-northeast-2a/vol-1"',
      'Apr 09 15:55:38 ip-192-168-75-136 kubelet[3801]: W0409 15:55:38.128905    3801 pod_container_deletor.go:77] Container "d9165d98" not found in pod\'s containers'])).toEqual(['mount', 'other']);
  });
});

describe('the hundred-and-thirty-first to hundred-and-thirty-third sets\' rules', () => {
  it('a Secrets Store provider serving the driver\'s Mount is the mount (Azure Key Vault, Vault)', () => {
    expect(stagesOf(['I0922 14:07:24.162010       1 provider.go:262] "fetching object from key vault" objectName="test" objectType="secret" keyvault="akv-1" pod="default/app"'])).toEqual(['mount']);
    expect(stagesOf(['I1120 18:30:51.485937       1 provider.go:188] "unmarshaled objects yaml array" objectsArray=[] pod="default/app"'])).toEqual(['mount']);
    expect(stagesOf(['I1120 18:30:51.486100       1 provider.go:217] "vault url" vaultName="kv1" vaultURL="https://kv1.vault.azure.net/" pod="default/app"'])).toEqual(['mount']);
    expect(stagesOf(['I0922 14:07:24.161749       1 provider.go:551] setting AZURE_ENVIRONMENT_FILEPATH to /cloudEnv/environmentFile.json for custom cloud'])).toEqual(['mount']);
    expect(stagesOf(['2021-05-12T18:06:58.138Z [DEBUG] server.provider: performing vault login'])).toEqual(['mount']);
    expect(stagesOf(['2021-05-12T18:06:58.138Z [DEBUG] server.provider: creating service account token bound to pod: namespace=vault serviceAccountName=webapp-sa podName=webapp'])).toEqual(['mount']);
  });

  it('the pod keys a kubelet sends only with NodePublishVolume say it is the publish; the autoscaler keeping a node for a pod is no step', () => {
    expect(stagesOf(['time="2023-01-19T05:31:06Z" level=info msg="found in VolumeContext" csi.storage.k8s.io/serviceAccount.name=default'])).toEqual(['mount']);
    expect(stagesOf(['time="2023-01-19T05:31:06Z" level=info msg="found in VolumeContext" csi.storage.k8s.io/pod.uid=3b5c'])).toEqual(['mount']);
    expect(stagesOf(['I1216 20:28:55.343278       1 cluster.go:169] Node ip-10-112-14-230.ec2.internal cannot be removed: mount-s3/mp-4c5r7 is not replicated'])).toEqual(['other']);
  });
});

describe('the hundred-and-thirty-fourth to hundred-and-thirty-sixth sets\' rules', () => {
  it('the kubelet\'s network rules, its disk-space check and its node name are no step, even between mount lines; a runtime refusing mount propagation is none', () => {
    const mount = 'I1222 05:48:14.400000    2536 operation_generator.go:486] MountVolume.WaitForAttach entering for volume "pvc-1" (UniqueName: "kubernetes.io/azure-disk/disk-1") pod "web-0" (UID: "1a2b") DevicePath "1"';
    expect(stagesOf([mount, 'I1222 05:48:14.509862    2536 kubelet_node_status.go:469] Using Node Hostname from cloudprovider: "34763k8s9010"'])).toEqual(['mount', 'other']);
    expect(stagesOf([mount, 'E1222 05:48:14.510862    2536 kubelet.go:1734] Failed to check if disk space is available for the runtime: could not determine capacity for "runtime" fs'])).toEqual(['mount', 'other']);
    expect(stagesOf([mount, 'E1222 05:48:21.955405    2536 kubelet_network.go:374] Failed to ensure that nat chain KUBE-MARK-DROP exists: error creating chain "KUBE-MARK-DROP": exit status 1'])).toEqual(['mount', 'other']);
    expect(stagesOf([mount, 'E1222 05:48:21.955405    2536 kubelet_network_linux.go:82] Failed to ensure that iptables hint chain KUBE-IPTABLES-HINT exists: exit status 4'])).toEqual(['mount', 'other']);
    expect(stagesOf(['linux mounts: Path /var/lib/kubelet/pods is mounted on / but it is not a shared mount'])).toEqual(['other']);
    expect(stagesOf(['linux mounts: Path /var/lib/kubelet is mounted on /var/lib/kubelet but it is not a shared mount'])).toEqual(['other']);
  });
});

describe('the hundred-and-thirty-seventh to hundred-and-thirty-ninth sets\' rules', () => {
  it('the container runtime refusing a container\'s bind mount spec is no volume\'s step', () => {
    expect(stagesOf(["Error: Error response from daemon: invalid volume specification: '/var/log/pods:/var/log/pods:ro': /var/db/system/syslog-535a/log/pods path is not allowed to be mounted"])).toEqual(['other']);
  });

  it('the EBS driver\'s volume modification is no step, even after an attach; the snapshot controllers starting are none', () => {
    expect(stagesOf(['I0801 18:53:35.000000       1 controller.go:480] "ControllerPublishVolume: attached" volumeID="vol-1" nodeID="i-1" devicePath="/dev/xvdaa"',
      'I0801 18:53:36.808891       1 controller_modify_volume.go:67] "ModifyVolumeProperties called" req="name:\\"vol-1\\" parameters:{key:\\"iops\\" value:\\"4000\\"}"',
      'I0801 18:53:38.809077       1 cloud.go:799] "Received Modify Disk request" volumeID="vol-1" options={"VolumeType":"","IOPS":4000}'])).toEqual(['attach', 'other', 'other']);
    expect(stagesOf(['I1109 06:52:31.367617       1 main.go:190] Start NewCSISnapshotController with kubeconfig [] resyncPeriod [15m0s]'])).toEqual(['other']);
    expect(stagesOf(['I1108 08:17:00.480600       1 main.go:227] Start NewCSISnapshotSideCarController with snapshotter [disk.csi.azure.com] kubeconfig [] csiTimeout [20m0s]'])).toEqual(['other']);
  });
});

describe('the hundred-and-fortieth to hundred-and-forty-second sets\' rules', () => {
  it('iscsiadm\'s and iscsid\'s own words for a logout are the unstaging', () => {
    expect(stagesOf(['Logging out of session [sid: 3, target: iqn.2010-01.com.example:tank, portal: 10.0.0.5,3260]'])).toEqual(['unmount']);
    expect(stagesOf(['iscsiadm: Could not logout of [sid: 3, target: iqn.2010-01.com.example:tank, portal: 10.0.0.5,3260].'])).toEqual(['unmount']);
    expect(stagesOf(['iscsiadm: Could not logout of all requested sessions'])).toEqual(['unmount']);
    expect(stagesOf(['Mar 02 10:00:00 node1 iscsid[900]: session in invalid state for logout. Try again later'])).toEqual(['unmount']);
  });

  it('the kernel\'s SCSI host of an iSCSI login and its NVMe-oF controllers are the attach arriving, in the journal or from dmesg -T', () => {
    expect(stagesOf(['Mar 02 10:00:00 node1 kernel: scsi host7: iSCSI Initiator over TCP/IP'])).toEqual(['attach']);
    expect(stagesOf(['[Mon Mar  2 10:00:00 2026] scsi host7: iSCSI Initiator over TCP/IP'])).toEqual(['attach']);
    expect(stagesOf(['Mar 02 10:00:00 node1 kernel: nvme nvme2: new ctrl: NQN "nqn.2019-05.io.openebs:pvc-1", addr 10.0.0.1:8420'])).toEqual(['attach']);
    expect(stagesOf(['[  612.123456] nvme nvme2: Connect command failed, error wo/DNR bit: 881'])).toEqual(['attach']);
  });

  it('after an Event row, a dmesg -T line and a grpc-go component\'s line begin records of their own', () => {
    const event = '  Warning  FailedMount  15s  kubelet  Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: timed out waiting for the condition';
    expect(stagesOf([event, '[core] grpc: addrConn.createTransport failed to connect to {/var/lib/kubelet/plugins/x.example.com/csi.sock  <nil> 0 <nil>}: didn\'t receive server preface in time. Reconnecting.']))
      .toEqual(['mount', 'other']);
    expect(stagesOf([event, '[Mon Mar  2 10:00:00 2026] nvme nvme2: failed to connect queue: 0 ret=881'])).toEqual(['mount', 'attach']);
  });

  it('a Longhorn engine starting with its replicas is Longhorn\'s attach, and its next lines with it', () => {
    expect(stagesOf(['time="2026-03-02T10:00:00Z" level=info msg="Starting with replicas [\\"tcp://10.0.0.9:10000\\"]"',
      'time="2026-03-02T10:00:00Z" level=info msg="Connecting to remote: 10.0.0.9:10000"'])).toEqual(['attach', 'attach']);
  });
});

describe('the hundred-and-forty-third and hundred-and-forty-fourth sets\' rules', () => {
  it('the e2e framework waiting for a volume or claim to bind is the provisioning; ceph-csi\'s e2e waiting for a grown capacity is the resize', () => {
    expect(stagesOf(['Mar  2 10:00:00.000: INFO: Waiting up to 5m0s for PersistentVolume pvc-0a1b2c3d to have phase Bound'])).toEqual(['provision']);
    expect(stagesOf(['Mar  2 10:00:00.000: INFO: Waiting up to timeout=5m0s for PersistentVolumeClaims [pvc-x7k2m] to have phase Bound'])).toEqual(['provision']);
    expect(stagesOf(['Mar  2 10:00:02.000: INFO: PersistentVolumeClaim pvc-x7k2m found and phase=Bound (2.0s)'])).toEqual(['provision']);
    expect(stagesOf(['Mar  2 10:00:02.000: INFO: PersistentVolume pvc-0a1b2c3d found and phase=Bound (2.1s)'])).toEqual(['provision']);
    expect(stagesOf(['Mar  2 10:00:02.000: INFO: current size in status {{2147483648 0} {<nil>} 2Gi BinarySI},expected size {{5368709120 0} {<nil>} 5Gi BinarySI}'])).toEqual(['resize']);
  });

  it('cert-manager\'s CSI drivers issuing the pod\'s certificate are the publish', () => {
    expect(stagesOf(['csi/manager "msg"="Failed to issue certificate, retrying after applying exponential backoff" "error"="waiting for request: not ready" "volume_id"="csi-1"'])).toEqual(['mount']);
    expect(stagesOf(['I0302 10:00:00.000000       1 certmanager.go:80] cert-manager: waiting for CertificateRequest to become ready csi-0a1b']).map((x) => x)).toEqual(['mount']);
    expect(stagesOf(['I0302 10:00:00.000000       1 certmanager.go:105] cert-manager: CA certificate written to file /csi-data-dir/csi-0a1b/data/ca.crt'])).toEqual(['mount']);
    expect(stagesOf(['I0302 10:00:00.000000       1 certmanager.go:113] cert-manager: certificate written to file /csi-data-dir/csi-0a1b/data/tls.crt'])).toEqual(['mount']);
    expect(stagesOf(['I0302 10:00:00.000000       1 certmanager.go:120] cert-manager: private key written to file: /csi-data-dir/csi-0a1b/data/tls.key'])).toEqual(['mount']);
  });
});

describe('the hundred-and-forty-fifth set\'s rules', () => {
  it('the kubelet failing to clean up an orphaned pod\'s volume directories is the teardown', () => {
    expect(stagesOf(['E0302 10:00:00.000000    1234 kubelet.go:1503] Failed cleaning up orphaned pod directories: lstat /var/lib/kubelet/pods/0a1b2c3d-0000-4000-8000-000000000001/volumes/kubernetes.io~nfs/data: stale NFS file handle'])).toEqual(['unmount']);
    expect(stagesOf(['E0302 10:00:00.000000    1234 volumes.go:152] Could not read directory /var/lib/kubelet/pods/0a1b2c3d-0000-4000-8000-000000000001/volumes/kubernetes.io~nfs: lstat …: stale NFS file handle'])).toEqual(['unmount']);
  });

  it('the GlusterFS FUSE client unmounting as it exits is the teardown, not its mount', () => {
    expect(stagesOf(['[2026-03-02 10:00:00.000001] I [fuse-bridge.c:4818:fuse_thread_proc] 0-fuse: unmounting /var/lib/kubelet/pods/0a1b2c3d-0000-4000-8000-000000000001/volumes/kubernetes.io~glusterfs/data',
      "[2026-03-02 10:00:00.000002] I [fuse-bridge.c:5475:fini] 0-fuse: Unmounting '/var/lib/kubelet/pods/0a1b2c3d-0000-4000-8000-000000000001/volumes/kubernetes.io~glusterfs/data'."])).toEqual(['unmount', 'unmount']);
  });

  it('a node plugin that just started and mounts at a path the kubelet gave a volume is serving it, not starting up', () => {
    expect(stagesOf(['I0302 10:00:00.000000   13511 cephcsi.go:223] Starting driver type: rbd with name: rbd.csi.ceph.com',
      'I0302 10:00:09.000000   13511 mount_linux.go:218] Mounting cmd (mount) with arguments (-t ext4 -o bind,_netdev /var/lib/kubelet/plugins/kubernetes.io/csi/rbd.csi.ceph.com/3038ce5e/globalmount/0001-0024 /var/lib/kubelet/pods/0a1b2c3d-0000-4000-8000-000000000001/volumes/kubernetes.io~csi/pvc-1/mount)']))
      .toEqual(['other', 'mount']);
    // (the staging directory alone, and the pod's volume directory alone)
    expect(stagesOf(['I0302 10:00:00.000000   13511 cephcsi.go:223] Starting driver type: rbd with name: rbd.csi.ceph.com',
      'I0302 10:00:09.000000   13511 mount_linux.go:218] Mounting cmd (mount) with arguments (-t ext4 -o _netdev /dev/rbd0 /var/lib/kubelet/plugins/kubernetes.io/csi/rbd.csi.ceph.com/3038ce5e/globalmount/0001-0024)']))
      .toEqual(['other', 'mount']);
    expect(stagesOf(['I0302 10:00:00.000000   13511 cephcsi.go:223] Starting driver type: rbd with name: rbd.csi.ceph.com',
      'I0302 10:00:09.000000   13511 mount_linux.go:218] Mounting cmd (mount) with arguments (-o bind /srv/exports/share1 /var/lib/kubelet/pods/0a1b2c3d-0000-4000-8000-000000000001/volumes/kubernetes.io~csi/pvc-1/mount)']))
      .toEqual(['other', 'mount']);
  });
});

describe('the hundred-and-forty-sixth to hundred-and-forty-eighth sets\' rules', () => {
  it('a PersistentVolume entering phase Released or Failed is in its reclaim (the delete), Bound the provisioning, as the simulation shows', () => {
    expect(stagesOf(['I0302 10:00:00.000000       1 pv_controller.go:864] volume "pvc-1" entered phase "Released"'])).toEqual(['delete']);
    expect(stagesOf(['I0302 10:00:00.000000       1 pv_controller.go:916] "Volume entered phase" logger="persistentvolume-binder-controller" volumeName="pvc-1" phase="Failed"'])).toEqual(['delete']);
    expect(stagesOf(['I0302 10:00:00.000000       1 pv_controller.go:864] volume "pvc-1" entered phase "Bound"'])).toEqual(['provision']);
  });

  it('the API server logging a request it served is no step, whatever the object', () => {
    expect(stagesOf(['I0302 10:00:00.000000       1 pv_controller.go:864] volume "pvc-1" entered phase "Released"',
      'I0302 10:00:00.100000       1 panics.go:76] PUT /api/v1/persistentvolumes/pvc-1/status: (113.465551ms) 200 [[hyperkube/v1.5.3 (linux/amd64) kubernetes/029c3a4/persistent-volume-binder] 10.0.0.5:44522]'])).toEqual(['delete', 'other']);
    expect(stagesOf(['I0302 10:00:00.100000       1 httplog.go:132] GET /apis/storage.k8s.io/v1/volumeattachments/csi-0a1b: (2.1ms) 404 [kube-controller-manager/v1.20.5 10.0.0.5:44522]'])).toEqual(['other']);
  });

  it('vSphere CSI placing a new volume by its topology (node VMs of a zone, their shared datastores) is the provisioning', () => {
    expect(stagesOf(['2026-03-02T10:00:00.000Z\tINFO\tk8sorchestrator/topology.go:1053\tObtained list of nodeVMs [vm-101 vm-102]\t{"TraceId": "t-1"}'])).toEqual(['provision']);
    expect(stagesOf(['2026-03-02T10:00:00.000Z\tINFO\tk8sorchestrator/topology.go:1140\tObtained shared datastores: []\t{"TraceId": "t-1"}'])).toEqual(['provision']);
    expect(stagesOf(['I0302 10:00:00.000000       1 controller.go:165] Shared datastores [[Datastore: datastore-68]] for topologyRequirement: requisite:<segments:<key:"topology.csi.vmware.com/k8s-zone" value:"zone-a" > >'])).toEqual(['provision']);
  });
});

describe('the hundred-and-forty-ninth to hundred-and-fifty-first sets\' rules', () => {
  it('the EFS driver making an access point and the Azure File driver making a share are the provisioning, the access point\'s dump with them', () => {
    expect(stagesOf(['I0302 10:00:00.000000       1 cloud.go:264] Calling Create AP with input: {', '  ClientToken: "pvc-1",', '  FileSystemId: "fs-0a1b"', '}'])).toEqual(['provision', 'provision', 'provision', 'provision']);
    expect(stagesOf(['E0302 10:00:00.000000       1 driver.go:106] GRPC error: rpc error: code = Internal desc = Failed to fetch Access Points or Describe File System: RequestCanceled: request context canceled'])).toEqual(['provision']);
    expect(stagesOf(['I0302 10:00:00.000000       1 azurefile_mgmt_client.go:90] created share pvc-1 in account f0a1b2c3'])).toEqual(['provision']);
    expect(stagesOf(['I0302 10:00:00.000000       1 controllerserver.go:807] begin to create vhd file(pvc-1.vhd) size(10737418240) on share(pvc-1) on account(f0a1b2c3) type(Standard_LRS) rg(rg-1) location(westeurope)'])).toEqual(['provision']);
  });

  it('a named logger\'s column in zap\'s console output says who logs, not what it does: "setup" is no SetUp', () => {
    expect(stagesOf(['2026-03-02T10:00:00.000Z\tINFO\tsetup\tStarting volume condition reporter\t{"driver": "cephfs.csi.ceph.com"}',
      '2026-03-02T10:00:01.000Z\tINFO\tsetup\tThe CSI-plugin does not have the CSI-Addons CONTROLLER_SERVICE capability, not running leader election'])).toEqual(['other', 'other']);
    // (a caller's file:line in that column stays the record's, and the message after it is read as before)
    expect(stagesOf(['2026-03-02T10:00:00.000Z\tINFO\tnode/node.go:120\tNodeStageVolume: staging volume pvc-1'])).toEqual(['mount']);
  });
});

describe('a Go panic is one error: the frame that names a CSI call or a sidecar\'s operation says what crashed', () => {
  it('a driver\'s panic inside NodeStageVolume, its blank line kept apart, after a line of another call', () => {
    expect(stagesOf(['time="2026-03-02T10:00:00Z" level=info msg="get plugin info called" method=get_plugin_info',
      'panic: runtime error: invalid memory address or nil pointer dereference',
      '[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x7c8e35]',
      '',
      'goroutine 32 [running]:',
      'example.com/csi-driver/driver.(*Driver).NodeStageVolume(0xc420094900, 0x94f040, 0xc4201b24e0)',
      '\t/go/src/example.com/csi-driver/driver/node.go:152 +0x335',
      'created by google.golang.org/grpc.(*Server).serveStreams.func1.2',
    ])).toEqual(['other', 'mount', 'mount', 'other', 'mount', 'mount', 'mount', 'mount']);
  });

  it('csi-provisioner\'s panic in Delete, pasted newest first from a log viewer after its restart\'s banner, is the delete, not the banner\'s piece', () => {
    const row = (t: string) => `\tMar 2, 2026 @ 10:00:00.000\t${t}`;
    expect(stagesOf([row('I0302 10:00:01.000000       1 csi-provisioner.go:139] Version: v3.1.0'),
      row('panic: runtime error: invalid memory address or nil pointer dereference [recovered]'),
      row('[signal SIGSEGV: segmentation violation code=0x1 addr=0x28 pc=0x159a602]'),
      row(''),
      row('goroutine 372 [running]:'),
      row('k8s.io/apimachinery/pkg/util/runtime.HandleCrash({0x0, 0x0, 0xc000ba2ff0})'),
      row('github.com/kubernetes-csi/external-provisioner/pkg/controller.(*csiProvisioner).Delete(0xc00046e3c0, {0x1c09090, 0xc00049cdc0}, 0xc000bccf00)'),
      row('\t/workspace/pkg/controller/controller.go:1146 +0x522'),
      row('created by sigs.k8s.io/sig-storage-lib-external-provisioner/v8/controller.(*ProvisionController).Run.func1'),
    ])).toEqual(['other', 'delete', 'delete', 'other', 'delete', 'delete', 'delete', 'delete', 'delete']);
    // (a dump pasted from its goroutine header, without the panic's line, is one too)
    expect(stagesOf([row('I0302 10:00:01.000000       1 csi-provisioner.go:139] Version: v3.1.0'),
      row('goroutine 372 [running]:'),
      row('github.com/kubernetes-csi/external-provisioner/pkg/controller.(*csiProvisioner).Delete(0xc00046e3c0, {0x1c09090, 0xc00049cdc0}, 0xc000bccf00)'),
    ])).toEqual(['other', 'delete', 'delete']);
  });

  it('a panic whose frames name no operation is the error of the record it broke off, across the blank line before its goroutine', () => {
    expect(stagesOf(['time="2026-03-02T10:00:00Z" level=info msg="CreateSnapshot is called with req name:\\"snapshot-1\\""',
      'panic: runtime error: invalid memory address or nil pointer dereference',
      '[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x7c8e35]',
      '',
      'goroutine 32 [running]:',
      'example.com/csi-driver/pkg/driver.(*ControllerServer).getBackupVolume(0xc420094900, 0x94f040)',
      '\t/go/src/example.com/csi-driver/pkg/driver/controller.go:152 +0x335',
    ])).toEqual(['snapshot', 'snapshot', 'snapshot', 'other', 'snapshot', 'snapshot', 'snapshot']);
    const r = explainText(['I0302 10:00:00.000000       1 controller.go:88] CreateSnapshot: called with args {Name:snapshot-1}',
      'panic: runtime error: invalid memory address or nil pointer dereference',
      'goroutine 32 [running]:',
      'example.com/csi-driver/pkg/driver.(*ControllerServer).getBackupVolume(0xc420094900, 0x94f040)',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['snapshot', 'snapshot', 'snapshot', 'snapshot']);
    expect(r.slice(1).map((l) => [l.kind, l.continues])).toEqual([['continuation', 1], ['continuation', 1], ['continuation', 1]]);
  });

  it('csi-attacher crashing in syncAttach is the attach (and client-go\'s "Observed a panic" record with its frames)', () => {
    expect(stagesOf(['panic: runtime error: invalid memory address or nil pointer dereference',
      'goroutine 112 [running]:',
      'github.com/kubernetes-csi/external-attacher/pkg/controller.(*csiHandler).syncAttach(0xc0001a2000, 0xc000512a80)',
      '\t/workspace/pkg/controller/csi_handler.go:310 +0x4d2',
    ])).toEqual(['attach', 'attach', 'attach', 'attach']);
    expect(stagesOf(['E0302 10:00:00.000000       1 runtime.go:78] Observed a panic: "invalid memory address or nil pointer dereference" (runtime error: invalid memory address or nil pointer dereference)',
      'goroutine 112 [running]:',
      'github.com/kubernetes-csi/external-attacher/pkg/controller.(*csiHandler).syncAttach(0xc0001a2000, 0xc000512a80)',
      '\t/workspace/pkg/controller/csi_handler.go:310 +0x4d2',
    ])).toEqual(['attach', 'attach', 'attach', 'attach']);
  });

  it('an Event row or a klog record a how-to set in shell comments is that record; a comment of prose or a command stays one', () => {
    expect(stagesOf(['# Here is a sample output below.',
      '#  Warning  FailedAttachVolume  6s (x6 over 25s)  attachdetach-controller  AttachVolume.Attach failed for volume "pv-azuredisk" : rpc error: code = NotFound desc = Volume not found',
      '# Warning  ProvisioningFailed    30s (x8 over 2m37s)   disk.csi.azure.com_csi-azuredisk-controller-76d4f9c85f-2zlqd  failed to provision volume with StorageClass "managed-csi": rpc error: code = InvalidArgument desc = mountVolume is not supported for access mode: MULTI_NODE_MULTI_WRITER',
      '# I0302 10:00:00.000000       1 controller.go:1366] provision "default/data" class "csi-cbs": started',
      '# Warning: the disk must be in the zone of the node',
      '# kubectl describe pod mypod',
    ])).toEqual(['other', 'attach', 'provision', 'provision', 'other', 'other']);
  });

  it('kube-scheduler\'s "no fit" is provisioning only when the pod\'s claims are why (as its FailedScheduling Event reads), else the scheduler\'s own', () => {
    const noFit = (err: string): string => `I0307 08:52:30.761984       1 schedule_one.go:1049] "Unable to schedule pod; no fit; waiting" pod="default/db-0" err="${err}"`;
    expect(stagesOf([noFit('0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.')])).toEqual(['provision']);
    expect(stagesOf([noFit('0/3 nodes are available: 1 node(s) didn\'t find available persistent volumes to bind, 2 Insufficient cpu.')])).toEqual(['provision']);
    expect(stagesOf([noFit('0/3 nodes are available: 1 node(s) had volume node affinity conflict, 2 Insufficient cpu.')])).toEqual(['other']);
    expect(stagesOf([noFit('0/3 nodes are available: 3 Insufficient memory.')])).toEqual(['other']);
  });

  it('a collector that stamps each line (kubectl logs --timestamps, a CRI log file) stamps each piece of a multi-line record too: the pieces are that record\'s', () => {
    const format = 'E0807 05:42:12.928903   32719 mount_linux.go:455] format of disk "/dev/longhorn/pvc-8df1241b" failed: type:("ext4") target:("/var/lib/kubelet/plugins/kubernetes.io/csi/driver.longhorn.io/16582cb9/globalmount") options:("defaults") errcode:(exit status 1) output:(mke2fs 1.46.4 (18-Aug-2021)';
    const stamped = (ns: string, l: string): string => `2023-08-07T05:42:12.929${ns}Z ${l}`;
    expect(stagesOf([stamped('140333', format), stamped('196200', 'Warning: could not erase sector 2: Input/output error'),
      stamped('203710', 'Creating filesystem with 131072000 4k blocks and 32768000 inodes'), stamped('214212', 'Superblock backups stored on blocks: '),
      stamped('219562', '\t32768, 98304, 163840, 229376, 294912, 819200, 884736, 1605632, 2654208, ')])).toEqual(['mount', 'mount', 'mount', 'mount', 'mount']);
    const cri = (l: string): string => `2024-03-01T10:09:58.587596308-05:00 stderr F ${l}`;
    expect(stagesOf([cri('E0301 15:09:58.587357       1 utils.go:31] GRPC error: rpc error: code = Internal desc = iscsi/lvm failure, last err seen:'),
      cri('iscsi: failed to sendtargets to portal 10.0.0.5:3260 output: iscsiadm: connection login retries (reopen_max) 5 exceeded'),
    ])).toEqual(['mount', 'mount']);
    // (each line its own record stays one: a stamped header, and a piece of another stream or of no stamp at all)
    expect(stagesOf([stamped('140333', format), stamped('150000', 'I0807 05:42:13.000000   32719 server.go:120] GRPC call: /csi.v1.Identity/Probe')])).toEqual(['mount', 'other']);
    expect(stagesOf([format, stamped('203710', 'Creating filesystem with 131072000 4k blocks and 32768000 inodes')])).toEqual(['mount', 'other']);
    expect(stagesOf([cri(format), `2024-03-01T10:09:58.587596308-05:00 stdout F Creating filesystem with 131072000 4k blocks and 32768000 inodes`])).toEqual(['mount', 'other']);
    // (klog's multi-line value, key=< … >, and a message cut after its colon: their stamped lines go on with them)
    expect(stagesOf([stamped('100000', 'E0807 05:42:12.900000   32719 node.go:88] "NodeStageVolume failed" output=<'), stamped('100100', 'Timed out after 2m0s'), stamped('100200', ' >')]))
      .toEqual(['mount', 'mount', 'mount']);
    expect(stagesOf([stamped('100000', 'E0807 05:42:12.900000   32719 node.go:88] NodeStageVolume failed, last err seen:'), stamped('100100', 'Timed out after 2m0s')]))
      .toEqual(['mount', 'mount']);
  });

  it('a Go panic whose frames name no operation is the error of the record it broke off, across the blank line Go prints before the goroutine', () => {
    expect(stagesOf(['time="2025-01-30T09:01:16Z" level=info msg="CreateSnapshot is called with req source_volume_id:\\"pvc-7898e0ec\\" name:\\"snapshot-1d2f\\""',
      'panic: runtime error: invalid memory address or nil pointer dereference',
      '[signal SIGSEGV: segmentation violation code=0x1 addr=0x80 pc=0x1d7a620]',
      '',
      'goroutine 344 [running]:',
      'github.com/longhorn/longhorn-manager/csi.(*ControllerServer).getBackupVolume(0xc000a1d4f0, {0xc000770540, 0x28})',
      '        /go/src/github.com/longhorn/longhorn-manager/csi/controller_server.go:287 +0x2e0',
    ])).toEqual(['snapshot', 'snapshot', 'snapshot', 'other', 'snapshot', 'snapshot', 'snapshot']);
    // (klog's fatal dump of every goroutine after a start-up error stays the start-up's: the passes after it decide the record)
    expect(stagesOf(['kubectl logs csi-smb-controller-7b9d6c8d5-x2x2x -c csi-provisioner --previous', 'I1102 11:20:34.679819       1 csi-provisioner.go:138] Version: v2.2.2',
      'F1102 11:20:34.772992       1 csi-provisioner.go:186] Error getting server version: Get "https://10.96.0.1:443/version?timeout=32s": dial tcp 10.96.0.1:443: connect: connection refused',
      'goroutine 1 [running]:',
      'k8s.io/klog/v2.stacks(0xc00000e001, 0xc0000e8000, 0xb9, 0x1b0)',
      'main.main()',
      '        /workspace/cmd/csi-provisioner/csi-provisioner.go:186 +0xa94',
      '',
      'goroutine 5 [chan receive]:',
      'k8s.io/klog/v2.(*loggingT).flushDaemon(0x29af7c0)',
    ])).toEqual(['other', 'other', 'other', 'other', 'other', 'other', 'other', 'other', 'other', 'other']);
  });

  it('a panic in the in-tree expand controller is the resize (and the kubelet\'s operation generator names its operation)', () => {
    expect(stagesOf(['E0817 13:46:32.815827       9 runtime.go:78] Observed a panic: "invalid memory address or nil pointer dereference" (runtime error: invalid memory address or nil pointer dereference)',
      'goroutine 2240 [running]:',
      'k8s.io/kubernetes/pkg/volume/util.ClaimToClaimKey(...)',
      '\t/workspace/src/k8s.io/kubernetes/pkg/volume/util/resize_util.go:57',
      'k8s.io/kubernetes/pkg/controller/volume/expand.(*expandController).syncHandler(0xc001616360, 0xc002e62be8, 0x12, 0x0, 0x0)',
    ])).toEqual(['resize', 'resize', 'resize', 'resize', 'resize']);
    expect(stagesOf(['panic: runtime error: index out of range [0] with length 0',
      'goroutine 881 [running]:',
      'k8s.io/kubernetes/pkg/volume/util/operationexecutor.(*operationGenerator).GenerateUnmountDeviceFunc.func1()',
    ])).toEqual(['unmount', 'unmount', 'unmount']);
  });

  it('Go\'s flag usage is no volume\'s step (the registrar\'s own is the registration\'s), whatever a flag\'s description says', () => {
    expect(stagesOf(['flag provided but not defined: -provisioner', 'Usage of /csi-attacher:', '  -dummy',
      '        Run in dummy mode, i.e. not connecting to CSI driver and marking everything as attached. Expected CSI driver name is "csi/dummy".',
      '  -kubeconfig string', '        Absolute path to the kubeconfig file. Required only when running out of cluster.'])).toEqual(['other', 'other', 'other', 'other', 'other', 'other']);
    expect(stagesOf(['Usage of /csi-node-driver-registrar:', '  -kubelet-registration-path string', '      Path of the CSI driver socket on the Kubernetes host machine.']).slice(1))
      .toEqual(['register', 'register']);
  });

  it('a line in another script is no punctuation row: a localized mount(8) error goes on with its record', () => {
    expect(stagesOf(['Mounting command: systemd-run', 'Output: Running scope as unit run-14829.scope.',
      'mount: 文件系统类型错误、选项错误、172.16.0.5:/data-nfs/k3s 上有坏超级块、',
      '       缺少代码页或助手程序，或其他错误'])).toEqual(['mount', 'mount', 'mount', 'mount']);
    // (a post's own elision mark, "・・・", stays one: the log after it is no container's start-up)
    expect(stagesOf(['$ kubectl logs -n kube-system ebs-csi-node-wvd2t', '・・・',
      'I0306 02:29:46.599234       1 resizefs_linux.go:71] Device /dev/nvme1n1 resized successfully'])).toEqual(['other', 'other', 'resize']);
  });

  it('multipathd\'s path checker is the health of a device already set up, no volume\'s step', () => {
    expect(stagesOf(['May 11 16:40:10 k8s-worker-1 multipathd[4554]: mpathaq: sdak - tur checker reports path is down',
      'May 11 16:40:12 k8s-worker-1 multipathd[4554]: mpathaq: remaining active paths: 3',
      'May 11 16:40:13 k8s-worker-1 multipathd[4554]: mpathaq: load table [0 2097152 multipath 0 0 1 1 service-time 0 1 1 8:16 1]'])).toEqual(['other', 'other', 'mount']);
  });

  it('the kubelet\'s own plugins setting a volume up for a pod is a mount, and so is a secret it cannot get after a teardown', () => {
    expect(stagesOf(['Jun 07 08:59:29 worker-1 kubelet[1455]: I0607 08:59:29.512179    1455 projected.go:189] Setting up volume kube-api-access-g6knl for pod 260a6d1e-5c5e-4f47-8a8e-0ff7a6c1a1d2 at /var/lib/kubelet/pods/260a6d1e-5c5e-4f47-8a8e-0ff7a6c1a1d2/volumes/kubernetes.io~projected/kube-api-access-g6knl']))
      .toEqual(['mount']);
    expect(stagesOf(['Oct 01 20:58:03 minikube kubelet[701]: I1001 20:58:03.241093     701 operation_generator.go:797] UnmountVolume.TearDown succeeded for volume "kubernetes.io/secret/0da959c1-gcp-auth-certs" (OuterVolumeSpecName: "gcp-auth-certs") pod "0da959c1" (UID: "0da959c1"). InnerVolumeSpecName "gcp-auth-certs". PluginName "kubernetes.io/secret", VolumeGidValue ""',
      'Oct 01 20:58:04 minikube kubelet[701]: E1001 20:58:04.277981     701 secret.go:195] Couldn\'t get secret gcp-auth/gcp-auth-certs: failed to sync secret cache: timed out waiting for the condition']))
      .toEqual(['unmount', 'mount']);
  });

  it('the lines of one request (ceph-csi\'s "ID: N", a CNS operator\'s TraceId) are one call\'s: the call a line names, else what most of them read', () => {
    const ceph = (t: string, l: string): string => `I1112 02:41:${t}   57617 ${l}`;
    // (ceph-csi's NodeStageVolume rolling back: its "rbd: unmap" is the staging's)
    expect(stagesOf([ceph('41.104232', 'crypto.go:199] ID: 11 Req-ID: 0001-0024-62aba89d-0000000000000002-07f2ca67 Encrypting device /dev/nbd0 with LUKS'),
      ceph('41.122394', 'encryption.go:204] ID: 11 Req-ID: 0001-0024-62aba89d-0000000000000002-07f2ca67 failed to encrypt volume: failed to encrypt device /dev/nbd0 with LUKS'),
      ceph('41.697643', 'cephcmds.go:62] ID: 11 Req-ID: 0001-0024-62aba89d-0000000000000002-07f2ca67 command succeeded: rbd [unmap /dev/nbd0 --device-type nbd]'),
    ])).toEqual(['mount', 'mount', 'mount']);
    const cns = (ms: string, caller: string, msg: string): string =>
      `{"level":"info","time":"2025-12-05T10:39:38.${ms}Z","caller":"${caller}","msg":"${msg}","TraceId":"07c62ee0-b59c-4178-bd36-519f30d1c057"}`;
    expect(stagesOf([cns('501360146', 'cnsnodevmbatchattachment/cnsnodevmbatchattachment_controller.go:236', 'Acquired lock for instance test/test-upgrade'),
      cns('517603729', 'cnsnodevmbatchattachment/cnsnodevmbatchattachment_controller.go:362', 'Deletion timestamp observed on instance test/test-upgrade. Detaching all volumes.'),
      cns('517775520', 'cnsnodevmbatchattachment/cnsnodevmbatchattachment_controller.go:458', 'Detach call started for PVC pv-upgrade-1 with volumeID 9520698d in namespace test for instance test-upgrade'),
    ])).toEqual(['detach', 'detach', 'detach']);
    // (a capability call's lines stay what they are, whatever the words of its answer)
    expect(stagesOf(['2021-09-27T20:22:53.147Z\tINFO\tvanilla/controller.go:1256\tControllerGetCapabilities: called with args {XXX_NoUnkeyedLiteral:{} XXX_unrecognized:[] XXX_sizecache:0}\t{"TraceId": "9bb21565-e274-462f-8277-20edc1f24b8c"}',
      '2021-09-27T20:22:53.154Z\tINFO\tcommon/common_controller_helper.go:118\tvCenter API version: 8.0.0.0 supports CNS snapshots.\t{"TraceId": "9bb21565-e274-462f-8277-20edc1f24b8c"}',
      '2021-09-27T20:22:53.155Z\tINFO\tvanilla/controller.go:1273\tControllerGetCapabilities: reporting Snapshot capabilities as snapshot FSS is enabled.\t{"TraceId": "9bb21565-e274-462f-8277-20edc1f24b8c"}',
    ])[0]).toBe('other');
    // (ceph-csi's ids start again when the plugin restarts)
    expect(stagesOf([ceph('40.000001', 'utils.go:195] ID: 3 Req-ID: 0001-0024-aaaa GRPC call: /csi.v1.Node/NodeUnstageVolume'),
      'I1112 02:41:45.000000   57617 cephcsi.go:196] Driver version: v3.9.0 and Git version: 0e8e5d0',
      ceph('46.000001', 'utils.go:195] ID: 3 Req-ID: 0001-0024-bbbb GRPC call: /csi.v1.Node/NodeStageVolume'),
      ceph('46.000101', 'mount_linux.go:487] ID: 3 Req-ID: 0001-0024-bbbb Disk "/dev/rbd0" appears to be unformatted, attempting to format as type: "ext4"'),
    ])).toEqual(['unmount', 'other', 'mount', 'mount']);
  });

  it('a request\'s record that goes on over more lines takes the request\'s stage with them; a call named without its leading slash names it', () => {
    const ceph = (t: string, l: string): string => `I1112 02:41:${t}   57617 ${l}`;
    expect(stagesOf([ceph('46.000001', 'utils.go:195] ID: 7 Req-ID: 0001-0024-bbbb GRPC call: /csi.v1.Node/NodeStageVolume'),
      ceph('46.100001', 'cephcmds.go:62] ID: 7 Req-ID: 0001-0024-bbbb command succeeded: rbd [unmap /dev/rbd0]'),
      'rbd: sysfs write failed',
    ])).toEqual(['mount', 'mount', 'mount']);
    // (two requests at once: the lines of request 8 are its NodeUnstageVolume's, though the call named last is another's)
    expect(stagesOf([ceph('47.000001', 'utils.go:195] ID: 8 Req-ID: 0001-0024-cccc GRPC call: csi.v1.Node/NodeUnstageVolume'),
      ceph('47.000002', 'utils.go:195] ID: 9 Req-ID: 0001-0024-dddd GRPC call: csi.v1.Node/NodeStageVolume'),
      ceph('47.100001', 'cephcmds.go:62] ID: 8 Req-ID: 0001-0024-cccc command succeeded: rbd [map replicapool/img]'),
      ceph('47.200001', 'cephcmds.go:62] ID: 8 Req-ID: 0001-0024-cccc mounting device /dev/rbd0'),
    ])).toEqual(['unmount', 'mount', 'unmount', 'unmount']);
    // (two lines are a request already)
    expect(stagesOf([ceph('47.000001', 'utils.go:195] ID: 8 Req-ID: 0001-0024-cccc GRPC call: /csi.v1.Node/NodeUnstageVolume'),
      ceph('47.000002', 'utils.go:195] ID: 9 Req-ID: 0001-0024-dddd GRPC call: /csi.v1.Node/NodeStageVolume'),
      ceph('47.100001', 'cephcmds.go:62] ID: 8 Req-ID: 0001-0024-cccc command succeeded: rbd [map replicapool/img]'),
    ])).toEqual(['unmount', 'mount', 'unmount']);
    // (no line names the call and its lines read two stages as often: the request decides nothing)
    expect(stagesOf([ceph('46.000001', 'crypto.go:199] ID: 11 Req-ID: 0001-0024-eeee Encrypting device /dev/nbd0 with LUKS'),
      ceph('46.100001', 'cephcmds.go:62] ID: 11 Req-ID: 0001-0024-eeee command succeeded: rbd [unmap /dev/nbd0 --device-type nbd]'),
    ])).toEqual(['mount', 'unmount']);
  });

  it('the kubelet releasing an emptyDir-backed volume\'s quota is its teardown; a backend\'s "deletion of dataset" is the deletion', () => {
    expect(stagesOf(['W1001 20:58:03.278214     701 empty_dir.go:453] Warning: Failed to clear quota on /var/lib/kubelet/pods/0da959c0-0923-4a9d-b4fa-2655545e6e7a/volumes/kubernetes.io~secret/gcp-auth-certs: clear quota called, but quotas disabled']))
      .toEqual(['unmount']);
    expect(stagesOf(['DeleteDataset: Starting deletion of dataset space/k8s/iscsi/volumes/pvc-25b8a2fd'])).toEqual(['delete']);
  });

  it('a DataVolume controller\'s report of its claim\'s phase ("PVC x Pending", "Clone Pending") is the provisioning', () => {
    expect(stagesOf(['  Normal   Pending             16m   datavolume-pvc-clone-controller  PVC ubuntu-dv-new Pending',
      '  Warning  Pending             16m   datavolume-pvc-clone-controller  Clone Pending',
      '3m29s       Normal   Bound                               datavolume/alpine-boot-clone3   PVC alpine-boot-clone3 Bound',
    ])).toEqual(['provision', 'provision', 'provision']);
    // (a pod's phase is no claim's)
    expect(stagesOf(['  Normal   Pending             16m   my-operator  Pod web-0 Pending'])).toEqual(['other']);
  });
});

describe('round of 2026-12-07: subPath clean-up, a failed publish undone, formatAndMount after start-up, secret sync, prompts', () => {
  it('the kubelet cleaning a pod\'s subPath mounts is its teardown (GenerateUnmountVolumeFunc), in a retry record cut over lines', () => {
    expect(stagesOf(['Feb 28 11:00:47 node-1 kubelet: E0228 11:00:47.816230    8651 nestedpendingoperations.go:267] Operation for "\\"flexvolume-alicloud/oss/oss1\\"',
      '(\\"2c4fc18b\\")" failed. No retries permitted until 2019-02-28 11:00:55.816187031 +0800 CST m=+137560.296226841 (durationBeforeRetry 8s).',
      'Error: "error cleaning subPath mounts for volume \\"oss1\\" (UniqueName: \\"flexvolume-alicloud/oss/oss1\\") pod \\"2c4fc18b\\"',
    ])).toEqual(['unmount', 'unmount', 'unmount']);
    expect(stagesOf(['E0828 19:34:17.585300    1234 nestedpendingoperations.go:348] Operation for "{volumeName:kubernetes.io/csi/driver.longhorn.io^data podName:1998f065 nodeName:}" failed. No retries permitted until 2026-08-28 19:34:18.085294397 +0000 UTC m=+1.0 (durationBeforeRetry 500ms). Error: error cleaning subPath mounts for volume "data" (UniqueName: "kubernetes.io/csi/driver.longhorn.io^data") pod "1998f065" (UID: "1998f065") : error cleaning subpath mount /var/lib/kubelet/pods/1998f065/volume-subpaths/data/app/7: unmount failed: exit status 16'])).toEqual(['unmount']);
  });

  it('a node plugin unmounting its target path because the publish failed is the failed publish', () => {
    expect(stagesOf(['I0729 18:44:29.198990       1 nodeserver.go:74] "unmounting target path as node publish volume failed" targetPath="/var/lib/kubelet/pods/ae8d3143/volumes/kubernetes.io~csi/secrets-store-inline/mount" pod="default/busybox"'])).toEqual(['mount']);
    // (an unpublish is still an unpublish)
    expect(stagesOf(['I0729 18:44:29.198990       1 nodeserver.go:274] "node unpublish volume complete" targetPath="/var/lib/kubelet/pods/ae8d3143/volumes/kubernetes.io~csi/secrets-store-inline/mount"'])).toEqual(['unmount']);
  });

  it('mount-utils formatting a disk after the node plugin started is a staging, not its start-up', () => {
    expect(stagesOf(['I0812 20:16:00.182375       1 driver.go:69] "Driver Information" Driver="ebs.csi.aws.com" Version="v1.33.0"',
      'I0812 20:16:00.182570       1 driver.go:138] "Listening for connections" address="/csi/csi.sock"',
      'I0812 20:17:21.329399       1 mount_linux.go:634] Attempting to determine if disk "/dev/nvme1n1" is formatted using blkid with args: ([-p -s TYPE -s PTTYPE -o export /dev/nvme1n1])',
      'I0812 20:17:21.345634       1 mount_linux.go:637] Output: ""',
      'I0812 20:17:21.345656       1 mount_linux.go:572] Disk "/dev/nvme1n1" appears to be unformatted, attempting to format as type: "xfs" with options: [-f /dev/nvme1n1]',
    ])).toEqual(['other', 'other', 'mount', 'mount', 'mount']);
  });

  it('secrets-store-csi-driver\'s secret-sync controller is no step of the volume it read, even right after its publish', () => {
    expect(stagesOf(['I1120 18:30:51.606179       1 nodeserver.go:253] "node publish volume complete" targetPath="/var/lib/kubelet/pods/e0c6b259/volumes/kubernetes.io~csi/secrets-store-inline/mount" pod="default/busybox"',
      'I1120 18:30:51.606437       1 secretproviderclasspodstatus_controller.go:224] "reconcile started" spcps="default/busybox-default-azure-kvname"',
      'E0610 22:27:02.283100       1 secretproviderclasspodstatus_controller.go:325] "failed to create Kubernetes secret" err="secrets is forbidden" spc="default/azure-kvname"',
    ])).toEqual(['mount', 'other', 'other']);
  });

  it('a prompt with a bracketed or a virtualenv prefix is the shell\'s, not a piece of the Event row above it', () => {
    const r = explainText(['  Warning  FailedAttachVolume  86s (x10 over 5m41s)  attachdetach-controller  AttachVolume.Attach failed for volume "pvc-1" : rpc error: code = Internal desc = hostname too long',
      '[teleport-tsh-ktest|test116] user@host:~$ k describe pvc data-0',
      '(base) user@host:~$ kubectl get pvc',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['event', 'attach'], ['decoration', 'other'], ['decoration', 'other']]);
  });
});

describe('round of 2026-12-07 (2): the PV controller\'s sync, klog headers cut to the time, commented syslog lines', () => {
  it('a PV controller line whose words name no stage is the binding\'s; a volume in phase Released or Failed is being reclaimed', () => {
    expect(stagesOf(['I0508 12:51:06.174931       1 pv_controller_base.go:535] storeObjectUpdate updating volume "pvc-eb08a64f" with version 3270',
      'I0508 12:51:06.174955       1 pv_controller.go:515] synchronizing PersistentVolume[pvc-eb08a64f]: phase: Bound, bound to: "default/data (uid: eb08a64f)", boundByController: true',
      'I0709 18:35:52.303979       1 pv_controller.go:493] synchronizing PersistentVolume[pv0131]: phase: Failed, bound to: "test/claim (uid: 5625)", boundByController: true',
      'I0709 18:35:52.303979       1 pv_controller.go:493] synchronizing PersistentVolume[pv0132]: phase: Released, bound to: "test/claim2 (uid: 5626)", boundByController: true',
    ])).toEqual(['provision', 'provision', 'delete', 'delete']);
  });

  it('a klog record cut to its time, thread id and file:line is still a record of its file', () => {
    const r = explainText(['22:13:14.605908       1 pv_controller_base.go:188] enqueued "default/pvc1" for sync',
      '22:13:14.669187       1 graph_builder.go:543] GraphBuilder process object: v1/PersistentVolume, namespace , name pv1, uid 057c5579',
      '22:13:14.669616       1 pv_protection_controller.go:205] Got event on PV pv1',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['log', 'provision'], ['log', 'other'], ['log', 'other']]);
  });

  it('a klog record that lost only its severity letter ("1222 13:47:55.310089 1 connection.go:187] …") is a record of its file', () => {
    const r = explainText(['I1222 13:47:54.100000       1 connection.go:185] GRPC call: /csi.v1.Controller/CreateSnapshot',
      '1222 13:47:55.310089 1 connection.go:187] GRPC error: rpc error: code = Internal desc = parsing time "01:47:55 PM" as "2006-01-02"',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['log', 'snapshot'], ['log', 'snapshot']]);
  });

  it('a node\'s syslog line a post set in shell comments is that line', () => {
    expect(stagesOf(['# Jul  3 13:12:29 aks-nodepool1-84224479-vmss000001 kernel: [11520.062521] CIFS: Attempting to mount \\\\smb-server.default.svc.cluster.local\\share',
      '# this is how the node saw it',
    ])).toEqual(['mount', 'other']);
  });
});

describe('round of 2026-12-07 (3): Nomad\'s agents (hclog, claims), journalctl commands', () => {
  it('an hclog record, indented as Nomad prints it, is a record; its multi-line error value goes on it', () => {
    const r = explainText(['    2025-03-11T17:01:50.738Z [ERROR] nomad.volumes_watcher: error releasing volume claims: namespace=my-namespace volume_id=redis-shard-0[0]',
      '  error=',
      '  | 1 error occurred:',
      '  | \\t* missing external node ID: Unknown node: 2fc5938a-02d1-57d0-6d6c-b7766419c059',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['log', 'detach'], ['continuation', 'detach'], ['continuation', 'detach'], ['continuation', 'detach']]);
  });

  it('a Nomad claim refused is the attach it comes before; releasing claims is the detach', () => {
    expect(stagesOf(['2026-01-07T10:51:30.940+0100 [ERROR] nomad.fsm: CSIVolumeClaim failed: error="volume max claims reached"',
      'Jun 15 19:37:57 nmdmaster1 nomad[36658]:     2022-06-15T19:37:57.585+0200 [ERROR] nomad.fsm: CSIVolumeClaim failed: error="volume max claims reached"',
    ])).toEqual(['attach', 'attach']);
  });

  it('a journalctl command under an Event row is the shell\'s, not a piece of the Event', () => {
    const r = explainText(['  Warning  FailedMount  2m  kubelet  Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: timed out waiting for the condition',
      'journalctl -t kernel --no-pager --since "today"',
      'journalctl --system --no-pager --since "today"',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['mount', 'other', 'other']);
  });
});

describe('round of 2026-12-07 (4): a Cobra command\'s usage, a container\'s mounts in describe', () => {
  it('a Cobra command\'s usage text is no volume\'s step, whatever its flags say; the line after it is read again', () => {
    expect(stagesOf(['Usage:',
      '  virt-chroot mount [flags]',
      '',
      'Flags:',
      '  -h, --help             help for mount',
      '  -o, --options string   comma separated list of mount options',
      '',
      'Global Flags:',
      '      --mount string   mount namespace to use',
      'E0302 10:00:00.000000       1 operation_generator.go:622] MountVolume.MountDevice failed for volume "pvc-1" : rpc error: code = Internal desc = x',
    ])).toEqual(['other', 'other', 'other', 'other', 'other', 'other', 'other', 'other', 'other', 'mount']);
  });

  it('a container\'s mounts as describe pod lists them are the pod\'s fields', () => {
    expect(stagesOf(['    Mounts:',
      '      /var/run/kubevirt-infra from infra-ready-mount (rw)',
      '      /var/lib/data from data (rw,path="sub")',
      '      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-x2v8d (ro)',
    ])).toEqual(['other', 'other', 'other', 'other']);
  });
});

describe('a gRPC error that says a mount failed is the node plugin\'s', () => {
  it('"failed to mount objects" in a driver\'s GRPC error is a publish, not a controller\'s attach', () => {
    expect(stagesOf(['E0729 18:44:47.139528       1 grpc.go:29] "GRPC error" err="failed to mount objects, error: failed to get objectType:kubernetes.io/dockerconfigjson, objectName:martrepo"'])).toEqual(['mount']);
    // (a controller's gRPC error with no mount in it stays the controller's)
    expect(stagesOf(['E0729 18:44:47.139528       1 grpc.go:29] "GRPC error" err="rpc error: code = Internal desc = failed to attach disk d-1 to instance i-1"'])).toEqual(['attach']);
  });
});

describe('kube-scheduler placing a pod is its own step, as its Scheduled Event is', () => {
  it('"Successfully bound pod to node" reads other, and the simulation\'s step of it says so', () => {
    expect(stagesOf(['I0815 09:55:26.281347       1 schedule_one.go:304] "Successfully bound pod to node" pod="default/web-0" node="node-1" evaluatedNodes=2 feasibleNodes=2'])).toEqual(['other']);
    const bound = runScenario('attach', { k8s: '1.30' }).steps.filter((s) => s.msg === 'kubeScheduler.boundPod');
    expect(bound.length).toBeGreaterThan(0);
    expect(bound.map((s) => s.stage)).toEqual(bound.map(() => 'other'));
  });
});

describe('round of 2026-12-07 (5): wrapped records, tailer prefixes, test frameworks', () => {
  it('a record a poster broke at spaces is read whole with the spaces back: its operation names the stage', () => {
    expect(stagesOf([
      '00:23:10.932184    3122 nestedpendingoperations.go:301] Operation for',
      '"{volumeName:kubernetes.io/csi/efs.csi.aws.com^fs-1 podName: nodeName:}"',
      'failed. No retries permitted until 2020-11-25 00:25:12.932131419 +0000 UTC',
      'm=+98140.130189479 (durationBeforeRetry 2m2s). Error: "MountVolume.SetUp failed for',
      'volume \\"efs-pv\\" pod \\"app1\\" : rpc error: code = Internal',
    ])).toEqual(['mount', 'mount', 'mount', 'mount', 'mount']);
  });
  it('each logfmt record behind a log tailer\'s "pod container " prefix is a record of its own', () => {
    const r = explainText([
      'csi-do-node-mv4pf csi-do-plugin time="2021-11-27T17:58:18Z" level=info msg="checking if target is mounted" args="[-o TARGET /mnt/x]"',
      'csi-do-node-mv4pf csi-do-plugin time="2021-11-27T17:58:18Z" level=info msg="node capacity statistics retrieved" bytes_available=7679172608',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.kind)).toEqual(['log', 'log']);
    // (and a volume's usage statistics are no step of its life)
    expect(r[1]!.stage).toBe('other');
  });
  it('the e2e framework waiting for a volume to be deleted, or finding it Released, is the reclaim', () => {
    expect(stagesOf([
      'May 29 20:16:54.087: INFO: Waiting up to 2m0s for PersistentVolume pvc-6740a6d3 to get deleted',
      'May 29 20:16:54.197: INFO: PersistentVolume pvc-6740a6d3 found and phase=Released (109.090407ms)',
    ])).toEqual(['delete', 'delete']);
  });
  it('the scheduler taking a pod from its queue and a reconstruction that finds no pods directory decide nothing', () => {
    expect(stagesOf([
      'I1116 05:15:27.023548  112041 pv_controller.go:856] updating PersistentVolume[pv-w-pvc-prebound]: binding to "ns/pvc-w-pv-prebound"',
      'I1116 05:15:27.024141  112041 scheduling_queue.go:841] About to try and schedule pod volume-scheduling-1/pod-w-pvc-prebound',
    ])).toEqual(['provision', 'other']);
    expect(stagesOf([
      'I0929 18:23:49.455713   36889 reconciler.go:26] "Reconciler: start to sync state"',
      'E0929 18:23:49.455607   36889 reconstruct.go:54] "Cannot get volumes from disk, skip sync states for volume reconstruction" err="open fake-dir: no such file or directory"',
    ])[1]).toBe('other');
  });
  it('a workload the API server refuses for its pod template is no volume\'s step, whatever its volumeMounts say', () => {
    expect(stagesOf(['\t* Deployment.apps "csi-test-controller" is invalid: spec.template.spec.containers[3].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers'])).toEqual(['other']);
  });
  it('kubectl version\'s lines under an Event are no piece of it; a test binary timing out is the runner\'s', () => {
    const r = explainText([
      'I0531 20:49:19.686707       1 event.go:203] Event(api.ObjectReference{Kind:"Pod", Namespace:"default", Name:"api-server-rsfne"}): reason: \'failedMount\' Unable to mount volumes for pod "api-server-rsfne_default": exit status 32',
      'Server Version: version.Info{Major:"0", Minor:"17", GitVersion:"v0.17.0", GitCommit:"82f8bdac", GitTreeState:"clean"}',
      'E0523 22:12:02.268570   29064 controller_base.go:259] PersistentVolumeController could not update claim "default/fake-pvc": persistentvolumeclaims "fake-pvc" not found',
      'panic: test timed out after 10m0s',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['mount', 'other', 'provision', 'other']);
    expect(r[1]!.kind).not.toBe('continuation');
  });
  it('a Longhorn engine whose frontend failed to come up is Longhorn\'s attach, not a staging', () => {
    expect(stagesOf(['time="2020-08-18T12:10:03Z" level=warning msg="pvc-5566bdfe-8158-422b-baaf-0c453c368a27-e-8971fbd1: 2020/08/18 12:09:29 failed to start up frontend: Failed to execute: nsenter [--mount=/host/proc/1/ns/mnt iscsiadm -m node -T iqn.2019-10.io.longhorn:pvc-5566bdfe --login], output iscsiadm: No records found"'])).toEqual(['attach']);
    // (and go-iscsi-helper's discovery retried there, with its clean-up of the node records)
    expect(stagesOf([
      'time="2019-05-06T11:34:43Z" level=warning msg="FAIL to discover due to Failed to execute: nsenter [--mount=/host/proc/1/ns/mnt iscsiadm -m discovery -t sendtargets -p 10.42.0.5], output , error iscsiadm: Could not open /run/lock/iscsi: No such file or directory"',
      'time="2019-05-06T11:34:43Z" level=warning msg="Nodes cleaned up for iqn.2014-09.com.rancher:pvc-3dd3c3fa"',
    ])).toEqual(['attach', 'attach']);
  });
});

describe('round of 2026-12-07 (6): partial container logs, the scheduler binding volumes, installs, a logger\'s gRPC lines', () => {
  it('a logs command whose output starts in the middle of a request is a part of the log: its lines keep what they say', () => {
    const line = '2024-03-10 11:03:42,31011 DEBUG    [281680] [SVC:14;600507680C8006BE780000000000001C] (executer.go:75) - Executing command : {multipath} with args : {[-r]}. and timeout : {60000} mseconds';
    expect(stagesOf(['oc logs ibm-block-csi-node-wz4rk -n openshift-storage', line,
      '2024-03-10 11:03:43,31011 INFO    [281680] [SVC:14;600507680C8006BE780000000000001C] (device_connectivity_helper_scsigeneric.go:574) - ReloadMultipath',
      '2024-03-10 11:03:43,31011 DEBUG    [281680] [SVC:14;600507680C8006BE780000000000001C] (device_connectivity_helper_scsigeneric.go:675) - Waiting for dm devices'])).toEqual(['other', 'mount', 'mount', 'mount']);
    // (a whole log that opens with its start-up within three lines is one still: its set-up chatter is no step)
    expect(stagesOf([
      'kubectl logs pod/ibm-spectrum-scale-csi-4nbf5 ibm-spectrum-scale-csi -n ibm-spectrum-scale-csi-driver',
      'E0603 00:03:06.553813       1 main.go:54] failed to delete stale plugin folder /var/lib/kubelet/plugins/x, please delete manually',
      'I0603 00:03:06.554021       1 gpfs.go:136] gpfs SetupScaleDriver. name: spectrumscale.csi.ibm.com, version: 2.0.0, nodeID: worker2',
      'I0603 00:03:06.554038       1 gpfs.go:173] gpfs PluginInitialize',
    ]).slice(3)).toEqual(['other']);
  });
  it('a klog record cut to its severity and file:line is a record of its file', () => {
    const r = explainText('E reflector.go:204] "Failed to watch" err="failed to list *v1beta2.VolumeGroupSnapshotClass: the server could not find the requested resource (get volumegroupsnapshotclasses.groupsnapshot.storage.k8s.io)"', knowledge).lines[0]!;
    expect(r.kind).toBe('log');
    expect(r.stage).toBe('other');
  });
  it('the scheduler\'s VolumeBinding plugin binding a pod\'s claims is the provisioning\'s', () => {
    expect(stagesOf(['  Warning  FailedScheduling  6m2s              default-scheduler  running PreBind plugin "VolumeBinding": binding volumes: selectedNode annotation reset for PVC "data"'])).toEqual(['provision']);
    expect(stagesOf(['running PreBind plugin "VolumeBinding": binding volumes: pv "pvc-7d8e47dd" node affinity doesn\'t match node "gpu-1": no matching NodeSelectorTerms'])).toEqual(['provision']);
  });
  it('installing the snapshot components is none of the snapshot\'s steps', () => {
    expect(stagesOf(['Created CRD volumesnapshots.snapshot.storage.k8s.io'])).toEqual(['other']);
    expect(stagesOf(['\u2705 Created  RBACs for snapshot-controller'])).toEqual(['other']);
    expect(stagesOf(['deployment.apps/snapshot-controller image updated'])).toEqual(['other']);
    expect(stagesOf(['No existing snapshot-controller Deployment found, deploying it now..'])).toEqual(['other']);
    // (a snapshot the controller takes stays one)
    expect(stagesOf(['I0101 10:00:00.000000       1 snapshot_controller.go:291] createSnapshotWrapper: Creating snapshot for content snapcontent-1 through the plugin ...'])).toEqual(['snapshot']);
  });
  it('a logger\'s gRPC request is the call logged just before it; an empty response is the last call that did work', () => {
    expect(stagesOf([
      'time="2020-03-13T03:45:44Z" level=error msg="GRPC error: rpc error: code = Internal desc = not able to format and mount the zvol"',
      'time="2020-03-13T03:46:16Z" level=info msg="GRPC call: /csi.v1.Node/NodeGetCapabilities"',
      'time="2020-03-13T03:46:16Z" level=info msg="GRPC request: {}"',
    ])).toEqual(['mount', 'other', 'other']);
    expect(stagesOf([
      'time="2020-03-13T03:46:16Z" level=info msg="GRPC call: /csi.v1.Node/NodeStageVolume"',
      'time="2020-03-13T03:46:16Z" level=info msg="GRPC call: /csi.v1.Node/NodeGetCapabilities"',
      'time="2020-03-13T03:46:16Z" level=info msg="GRPC response: {}"',
    ])).toEqual(['mount', 'other', 'mount']);
    // (the message is the msg field, whatever fields the logger prints after it)
    expect(stagesOf([
      'time="2020-03-13T03:46:16Z" level=info msg="GRPC call: /csi.v1.Node/NodePublishVolume" func=grpc.logGRPC',
      'time="2020-03-13T03:46:16Z" level=info msg="GRPC call: /csi.v1.Node/NodeGetCapabilities" func=grpc.logGRPC',
      'time="2020-03-13T03:46:16Z" level=info msg="GRPC response: {}" func=grpc.logGRPC',
    ])).toEqual(['mount', 'other', 'mount']);
  });
});

describe('round of 2026-12-07 (7): annotations in a printed object, audit records, SecretProviderClass', () => {
  it('a printed Node\'s annotation whose key has a slash is one of its fields, whatever the key says', () => {
    const r = explainText([
      '    "node.alpha.kubernetes.io/ttl": "0",',
      '    "volumes.kubernetes.io/controller-managed-attach-detach": "true"',
      '  }',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['other', 'other', 'other']);
  });
  it('an API server audit record is its bookkeeping, whoever asked for what', () => {
    expect(stagesOf(['{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"5c5321d9","stage":"ResponseComplete","requestURI":"/apis/storage.k8s.io/v1/csinodes/node-1","verb":"get","user":{"username":"system:node:node-1"},"responseStatus":{"code":403}}'])).toEqual(['other']);
  });
  it('secrets-store\'s publish failing to read the pod\'s SecretProviderClass is the mount', () => {
    expect(stagesOf(['E0101 10:00:00.000000       1 utils.go:81] GRPC error: failed to get secretproviderclass default/azure-kvname, error: secretproviderclasses.secrets-store.csi.x-k8s.io "azure-kvname" not found'])).toEqual(['mount']);
  });
});

describe('round of 2026-12-07 (8): a claim update refused, an Event\'s message after its From column', () => {
  it('a claim whose fields a chart changes is refused with no step; a smaller request is a resize refused', () => {
    const r = explainText([
      'Error: UPGRADE FAILED: cannot patch "backend-pvc" with kind PersistentVolumeClaim: PersistentVolumeClaim "backend-pvc" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      '  core.PersistentVolumeClaimSpec{',
      '  \t... // 2 identical fields',
      '  \tResources:        {Requests: {s"storage": {i: {...}, s: "100M", Format: "DecimalSI"}}},',
      '- \tStorageClassName: &"hostpath",',
      '+ \tStorageClassName: nil,',
      '  }',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['other', 'other', 'other', 'other', 'other', 'other', 'other']);
    expect(stagesOf(['Error: UPGRADE FAILED: cannot patch "prometheus-server" with kind PersistentVolumeClaim: PersistentVolumeClaim "prometheus-server" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than previous value'])).toEqual(['resize']);
  });
  it('an Event\'s message we know, pasted alone or after its From column, has its reason\'s stage when its words give none', () => {
    const r = explainText('persistentvolume-controller  waiting for first consumer to be created before binding', knowledge).lines[0]!;
    expect([r.kind, r.messageId, r.stage]).toEqual(['event', 'WaitForFirstConsumer', 'provision']);
    expect(stagesOf(['waiting for first consumer to be created before binding'])).toEqual(['provision']);
  });
});

describe('round of 2026-12-07 (9): subPath, the runtime, a busybox shell, the volume manager starting', () => {
  it('the kubelet preparing a container\'s subPath is the mount, also through the container start that fails on it', () => {
    expect(stagesOf([
      'E0422 20:12:30.100975 7905 kubelet_pods.go:212] failed to create subPath directory for volumeMount "shared" of container "app": chmod "/var/lib/kubelet/pods/9e5a/volumes/kubernetes.io~glusterfs/shared": bad file descriptor',
      'E0820 08:45:21.509160    3570 kuberuntime_manager.go:733] container start failed: CreateContainerConfigError: failed to create subPath directory for volumeMount "ldap" of container "grafana"',
      '  Warning  Failed   12s (x15 over 7m15s)  kubelet  Error: failed to prepare subPath for volumeMount "data" of container "db"',
    ])).toEqual(['mount', 'mount', 'mount']);
    // (after the clean-up of the bind mount that failed, which reads like a teardown, the kubelet's own words still say mount)
    expect(stagesOf([
      'W0505 07:30:47.851046      28 mount_helper_common.go:142] Warning: "/var/lib/kubelet/pods/5a3e/volume-subpaths/config/app/0" is not a mountpoint, deleting',
      'E0505 07:30:47.851125      28 kubelet_pods.go:237] "Failed to prepare subPath for volumeMount of the container" err=<',
    ])[1]).toBe('mount');
    // (and the runtime's line of the same file stays what it is: a container's start, no volume's step)
    expect(stagesOf(['E0628 20:38:55.027408    3010 kuberuntime_manager.go:775] container start failed: ErrImagePull: rpc error: code = Unknown desc = manifest unknown'])).toEqual(['other']);
  });
  it('the container runtime failing to create a container, or a policy refusing a driver\'s pods, is no step', () => {
    expect(stagesOf([
      'E0712 09:00:06.343329 2830 remote_runtime.go:228] "CreateContainer in sandbox from runtime service failed" err="rpc error: code = Unknown desc = relabel failed /var/lib/kubelet/pods/ecd3/volumes/kubernetes.io~csi/pvc-6c94/mount: lsetxattr: read-only file system"',
      '(combined from similar events): Error: container create failed: time="2024-05-29T02:09:06Z" level=error msg="runc create failed: unable to start container process: error mounting \\"/var/lib/kubelet/pods/779d/volume-subpaths/cert/app/0\\" to rootfs: not a directory"',
    ])).toEqual(['other', 'other']);
    expect(stagesOf([
      'Error from server ([denied by autogke-disallow-privilege]|[denied by autogke-no-write-mode-hostpath]): error when creating "https://raw.githubusercontent.com/datashim-io/datashim/master/release-tools/manifests/dlf.yaml": admission webhook "policycontrollerv2.common-webhooks.networking.gke.io" denied the request: GKE Policy Controller rejected the request because it violates one or more policies: {"[denied by autogke-disallow-privilege]":["container csi-provisioner is privileged; not allowed in Autopilot"],"[denied by autogke-no-write-mode-hostpath]":["hostPath volume socket-dir in container csi-provisioner is accessed in write mode; disallowed in Autopilot."]}',
      'Error from server (Forbidden): error when creating "csi-provisioner.yaml": pods "csi-provisioner-0" is forbidden: violates PodSecurity "restricted:latest": privileged (container "csi-provisioner" must not set securityContext.privileged=true)',
    ])).toEqual(['other', 'other']);
  });
  it('a busybox shell\'s prompt and ps rows are the session\'s, not the process they list', () => {
    const r = explainText([
      '/ # ps aux|grep kubelet',
      '33652 0        /csi-node-driver-registrar --v=5 --csi-address=/csi/csi.sock --kubelet-registration-path=/var/lib/kubelet/plugins/csi-secrets-store/csi.sock',
      '33675 0        grep kubelet',
      '/ #',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['other', 'other', 'other', 'other']);
    expect(r.map((l) => l.kind)).toEqual(['decoration', 'decoration', 'decoration', 'decoration']);
    // (a helm install, or a kubectl given a flag before its verb, is a command too)
    expect(stagesOf(['helm install nfs stable/nfs-server-provisioner --namespace=mayastor --set=persistence.storageClass=mayastor-iscsi', 'k --kubeconfig hv.yaml get volumeattachments.storage.k8s.io | grep pvc-bab2'])).toEqual(['other', 'other']);
  });
  it('the volume manager starting and the eviction manager are start-up and the node\'s, after CSINode lines as well', () => {
    expect(stagesOf([
      'E0206 06:38:10.390342    8427 csi_plugin.go:295] Failed to initialize CSINode: error updating CSINode annotation: timed out waiting for the condition',
      'I0206 06:38:14.385939    8427 desired_state_of_world_populator.go:153] "Finished populating initial desired state of world"',
      'E0206 06:38:14.656391    8427 eviction_manager.go:262] "Eviction manager: failed to get summary stats" err="failed to get node info: node length from meta db is 0"',
    ]).slice(1)).toEqual(['other', 'other']);
  });
  it('a scheduler\'s claim not bound, a CreateVolume\'s look for a pre-existing volume, a JSON record cut in its stack trace', () => {
    expect(stagesOf([
      'Warning  FailedScheduling  40s   fargate-scheduler  Pod not supported on Fargate: volumes not supported: efs-storage not supported because: PVC efs-storage-efs-app-sts1-0 not bound',
      'E1025 10:32:01.249325       1 controllerserver.go:106] error checking for pre-existing volume: rpc error: code = Internal desc = error in fetching volume details volume not started',
    ])).toEqual(['provision', 'provision']);
    const r = explainText([
      '{"level":"warn","time":"2022-08-09T11:44:58.191023507Z","caller":"volume/manager.go:319","msg":"failed to store CreateVolume details with error: namespaces \\"vmware-system-csi\\" not found"}',
      '{"level":"error","time":"2022-08-09T11:44:58.190708545Z","caller":"cnsvolumeoperationrequest/cnsvolumeoperationrequest.go:196","msg":"failed to create CnsVolumeOperationRequest instance with error: namespaces \\"vmware-system-csi\\" not found","stacktrace":"sigs.k8s',
      '    /build/pkg/internalapis/cnsvolumeoperationrequest/cnsvolumeoperationrequest.go:196',
      'sigs.k8s.io/vsphere-csi-driver/v2/pkg/common/cns-lib/volume.(*defaultManager).createVolumeWithImprovedIdempotency.func1',
    ].join('\n'), knowledge).lines;
    // (its stack trace, cut where the post was, goes with it and names the call it served)
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['log', 'provision'], ['log', 'provision'], ['continuation', 'provision'], ['continuation', 'provision']]);
  });
  it('an old describe\'s Event row whose reason fills its column is a row of its own', () => {
    const r = explainText([
      '  FirstSeen LastSeen    Count   From            SubobjectPath   Type        Reason      Message',
      '  2m        2m      1   {default-scheduler }            Normal      Scheduled   Successfully assigned nfs-bb-pod1 to 127.0.0.1',
      '  44s       44s     1   {kubelet 127.0.0.1}         Warning     FailedMount Unable to mount volumes for pod "nfs-bb-pod1_default(a94f)": timeout expired waiting for volumes to attach/mount for pod "nfs-bb-pod1"/"default". list of unattached/unmounted volumes=[nfs]',
    ].join('\n'), knowledge).lines;
    expect(r.slice(1).map((l) => [l.kind, l.stage])).toEqual([['event', 'other'], ['event', 'mount']]);
  });
});

describe('round of 2026-12-07 (11): the kernel\'s I/O errors, a Ceph tool\'s stderr, grep\'s file names, a harness\'s commands', () => {
  it('the kernel reporting a disk or file system failing under use is no step, though its SCSI address reads like an attach', () => {
    expect(stagesOf([
      '<6>1 2020-12-02T21:55:55.886226+01:00 stkub15 kernel - - - sd 3:0:0:1: [sdd] CDB: Write(10) 2a 00 02 80 09 40 00 00 08 00',
      '<3>1 2020-12-02T21:55:55.886277+01:00 stkub15 kernel - - - blk_update_request: critical medium error, dev sdd, sector 41945408',
      'Apr 15 14:04:13 node1 kernel: [308112.096694] sd 6:0:0:1: [sdf] tag#7 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_SENSE',
      'Apr 15 14:04:13 node1 kernel: [308112.096695] sd 6:0:0:1: [sdf] tag#7 Sense Key : Medium Error [current]',
      'kernel: XFS (dm-4): Corruption detected. Unmount and run xfs_repair',
      'kernel: XFS (dm-4): xfs_do_force_shutdown(0x1) called from line 1788 of file fs/xfs/xfs_inode.c.  Return address = 000000009d022bf1',
    ])).toEqual(['other', 'other', 'other', 'other', 'other', 'other']);
    // (the kernel finding the disk the attach brought is still the attach, and XFS refusing to mount it the mount)
    expect(stagesOf(['[ 1302.441316] sd 2:0:0:1: [sdb] Attached SCSI disk'])).toEqual(['attach']);
    expect(stagesOf(['[766396.293546] XFS (sdf): Attempted to mount read-only compatible filesystem read-write.'])).toEqual(['mount']);
  });
  it('a Ceph tool\'s own log lines in the error of the program that ran it are that error\'s', () => {
    const r = explainText([
      '  Warning  ProvisioningFailed  5m  csi-rbdplugin csi-rbdplugin-provisioner-0 40f32c1c  Failed to provision volume with StorageClass "ceph-xfs": rpc error: code = Internal desc = exit status 1',
      '2019-02-13 12:15:37.021148 7fddbda08d40 -1 Errors while parsing config file!',
      '2019-02-13 12:15:37.021169 7fddbda08d40 -1 parse_file: cannot open /etc/ceph/ceph.conf: (2) No such file or directory',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['provision', 'provision', 'provision']);
    expect(r.slice(1).map((l) => l.kind)).toEqual(['continuation', 'continuation']);
    // (a Ceph daemon's own log is records of its own)
    const d = explainText([
      '2019-02-13 12:15:37.021148 7fddbda08d40 -1 Errors while parsing config file!',
      '2019-02-13 12:15:37.021169 7fddbda08d40 -1 parse_file: cannot open /etc/ceph/ceph.conf: (2) No such file or directory',
    ].join('\n'), knowledge).lines;
    expect(d.map((l) => l.kind)).toEqual(['log', 'log']);
  });
  it('grep\'s file name before a journal line, and e2fsck\'s verdict in it', () => {
    const r = explainText([
      '/var/log/messages:Mar 19 18:23:37 k8s-node-2 kubelet: /dev/rbd0:',
      '/var/log/messages:Mar 19 18:23:37 k8s-node-2 kubelet: The superblock could not be read or does not describe a correct ext2',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind === 'unrelated' ? 'unrelated' : 'read', l.stage])).toEqual([['read', 'mount'], ['read', 'mount']]);
    expect(r[0]!.host).toBe('k8s-node-2');
  });
  it('a harness running a command in a pod is no step, whatever the pod is', () => {
    expect(stagesOf([
      'Jun  9 13:22:53.324: INFO: ExecWithOptions: execute(POST https://192.168.39.43:8443/api/v1/namespaces/cephcsi-e2e-4834/pods/csi-rbdplugin-787bh/exec?command=%2Fbin%2Fsh&command=-c&command=pstree+--arguments+%7C+grep+%5Br%5Dbd-nbd&container=csi-rbdplugin)',
      'Using attach strategy to execute scripts...',
    ])).toEqual(['other', 'other']);
  });
  it('a JSON record cut after a brace inside its message is still a cut record', () => {
    const r = explainText([
      '{"level":"warn","time":"2022-08-09T11:44:58.191023507Z","caller":"volume/manager.go:319","msg":"failed to store CreateVolume details with error: namespaces \\"vmware-system-csi\\" not found"}',
      '{"level":"error","time":"2022-08-09T11:44:58.190708545Z","caller":"cnsvolumeoperationrequest/cnsvolumeoperationrequest.go:196","msg":"failed to create CnsVolumeOperationRequest instance map[]{} with error: not found","stacktrace":"sigs.k8s',
      'sigs.k8s.io/vsphere-csi-driver/v2/pkg/common/cns-lib/volume.(*defaultManager).createVolumeWithImprovedIdempotency.func1',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['log', 'provision'], ['log', 'provision'], ['continuation', 'provision']]);
  });
});

describe('round of 2026-12-07 (12): a command typed at a prompt, the kubelet\'s image disk, Kata\'s shim, logrus on a terminal', () => {
  it('what a command typed to look at the node prints is its answer, no step, though its words are a mount\'s', () => {
    const mkfs = [
      'mke2fs 1.47.0 (5-Feb-2023)',
      'Discarding device blocks: done',
      'Creating filesystem with 524288 4k blocks and 131072 inodes',
    ];
    expect(stagesOf(['root@hostmachine:/home# sudo mkfs.ext4 /tmp/rawdisk01.2g', ...mkfs])).toEqual(['other', 'other', 'other', 'other']);
    // (and says so, rather than what the words alone suggested)
    const said = explainText(['root@hostmachine:/home# sudo mkfs.ext4 /tmp/rawdisk01.2g', ...mkfs].join('\n'), knowledge).lines[1]!;
    expect(said.explanation).toMatch(/command typed at the prompt on line 1\b/);
    expect(said.explanation).not.toMatch(/mount/);
    // (the same lines without the prompt are mke2fs's output in a mount's error)
    expect(stagesOf(mkfs)).toEqual(['mount', 'mount', 'mount']);
    expect(stagesOf([
      '# mount -t nfs 192.168.42.4:/exports/data /mnt',
      'mount.nfs: trying text-based options \'vers=4,addr=192.168.42.4,clientaddr=192.168.42.3\'',
      'mount.nfs: mount(2): Connection refused',
    ])).toEqual(['other', 'other', 'other']);
    expect(stagesOf([
      '$ sudo multipath -ll',
      'mpatha (36001405ecb7e7041b044ba9805a1628b) dm-1 LIO-ORG ,TCMU device',
      'size=1.0G features=\'1 queue_if_no_path\' hwhandler=\'1 alua\' wp=rw',
    ])).toEqual(['other', 'other', 'other']);
    // (the answer ends at a blank line: the kubelet's record after it is its own)
    expect(stagesOf([
      '$ sudo multipath -ll',
      'mpatha (36001405ecb7e7041b044ba9805a1628b) dm-1 LIO-ORG ,TCMU device',
      '',
      'mount.nfs: mount(2): Connection refused',
    ])).toEqual(['other', 'other', 'other', 'mount']);
    // (a listing is names: a message pasted under it is no part of it)
    expect(stagesOf([
      '$ sudo ls /var/lib/kubelet/pods/3feec45e-4bc0-11e6-bea0-8cdcd43ac064/volumes',
      'kubernetes.io~empty-dir',
      'Failed to remove orphaned pod "3feec45e-4bc0-11e6-bea0-8cdcd43ac064" dir; err: remove /var/lib/kubelet/pods/3feec45e-4bc0-11e6-bea0-8cdcd43ac064/volumes/kubernetes.io~empty-dir/restart-count: device or resource busy',
    ])[2]).toBe('unmount');
  });
  it('the kubelet\'s image garbage collector, the image file system\'s stats and the eviction manager\'s observations are no step', () => {
    expect(stagesOf([
      'Apr 26 08:59:27 node-2-vm kubelet-wrapper[1064]: I0426 08:59:27.560529    1064 image_gc_manager.go:335] [imageGCManager]: Removing image "sha256:896f0b69742a885415971c4c0ff5061b6be98b1f13b" to free 2357 bytes',
      'I0603 12:41:40.415462    3337 cadvisor_stats_provider.go:280] "Detect Split Filesystem" ImageFilesystems="&FilesystemUsage{Timestamp:1717418500415388965}"',
      'I0603 12:41:40.416841    3337 helpers.go:975] "Eviction manager:" log="observations" signal="containerfs.available" resourceName="ephemeral-storage" available="22636688Ki"',
      'Failed to get the info of the filesystem with mountpoint "/var/lib/rancher/k3s/agent/containerd/io.containerd.snapshotter.v1.overlayfs": unable to find data in memory cache.',
    ])).toEqual(['other', 'other', 'other', 'other']);
    // (its file says so when its words say nothing, after a line of the kubelet's mount)
    expect(stagesOf([
      'I0412 09:28:10.756764   14260 reconciler.go:224] operationExecutor.MountVolume started for volume "data" (UniqueName: "kubernetes.io/csi/x^y") pod "web-0"',
      'I0412 09:28:14.756764   14260 image_gc_manager.go:317] attempting to delete unused images',
    ])).toEqual(['mount', 'other']);
  });
  it('the configMap or secret the kubelet read to set a volume up is the mount', () => {
    expect(stagesOf([
      'I0709 15:18:41.100558   21886 configmap.go:217] Received configMap core/logrotate-configmap containing (12) pieces of data, 230 total bytes',
      'I0709 15:18:41.100601   21886 secret.go:206] Received secret core/default-token-x2k9p containing (3) pieces of data, 1884 total bytes',
    ])).toEqual(['mount', 'mount']);
  });
  it('Kata Containers\' shim undoing its sandbox\'s mounts is the runtime\'s, no unmount', () => {
    const shim = 'time="2021-06-29T18:07:15.660037482+02:00" level=warning msg="Could not umount" error="no such file or directory" host-path=/run/kata-containers/shared/sandboxes/a8f7/mounts/d595-resolv.conf';
    expect(stagesOf([`${shim} name=containerd-shim-v2 pid=262110 sandbox=a8f7 source=virtcontainers subsystem=container`])).toEqual(['other']);
    // (the same record of another program is an unmount)
    expect(stagesOf([shim])).toEqual(['unmount']);
  });
  it('logrus\'s text format on a terminal is a record a line, no piece of the record above', () => {
    const r = explainText([
      'E1130 00:07:33.701620   11754 kubelet_volumes.go:225] "There were many similar errors. Turn up verbosity to see them." err="orphaned pod \\"36b5c8e7\\" found, but error occurred when trying to remove the volumes dir: not a directory" numErrs=2',
      'INFO[0030] Waiting for deletion of kube-apiserver static pod ',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind === 'continuation' ? 'continuation' : 'record', l.stage])).toEqual([['record', 'unmount'], ['record', 'other']]);
  });
});

describe('round of 2026-12-07 (13): a request without its call, a Ceph client under a bare message, a driver\'s banner, a claim a StatefulSet creates, a header wrapped alone', () => {
  it('a request whose fields are DeleteVolume\'s, secrets sorted first, is the deletion, and the driver\'s unmount inside it too', () => {
    const r = explainText([
      'I0212 07:23:36.869876       1 utils.go:98] GRPC request: {"secrets":"***stripped***","volume_id":"csi-cephfs-pvc-5b7c6d75-2e96-11e9-af82-525400b639ff"}',
      'E0212 07:23:36.968127       1 volume.go:144] failed to unmount /var/lib/kubelet/plugins/csi-cephfsplugin/controller/volumes/root-csi-cephfs-pvc-5b7c6d75-2e96-11e9-af82-525400b639ff with error cephfs: umount failed',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['delete', 'delete']);
    // (a request that names a staging path too is an unstaging, whatever its keys' order)
    expect(stagesOf(['I0212 07:23:36.869876       1 utils.go:98] GRPC request: {"secrets":"***stripped***","staging_target_path":"/var/lib/kubelet/plugins/x/globalmount","volume_id":"v1"}'])).toEqual(['unmount']);
  });
  it('a Ceph client\'s log lines under an Event\'s message posted alone are the stderr its error carries', () => {
    const r = explainText([
      'MountVolume.MountDevice failed for volume "pvc-ee1a5bf1-2903-4b3c-8a60-366adc6c9caf" : rpc error: code = Internal desc = an error (exit status 32) occurred while running mount args: [-t ceph 10.43.236.204:6789:/volumes/csi/csi-vol-9a4ac09b /var/lib/kubelet/plugins/kubernetes.io/csi/rook-ceph.cephfs.csi.ceph.com/e3b0/globalmount -o name=csi-cephfs-node] stderr: unable to get monitor info from DNS SRV with service name: ceph-mon',
      '2024-12-30T14:25:53.873+0000 70c869e44000 -1 failed for service _ceph-mon._tcp',
      'mount error: no mds (Metadata Server) is up. The cluster might be laggy, or you may not be authorized',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['event', 'mount'], ['continuation', 'mount'], ['continuation', 'mount']]);
    expect(r.slice(1).map((l) => l.continues)).toEqual([1, 1]);
  });
  it('a driver\'s start-up banner is no step, in a registrar\'s log or after a mount', () => {
    const banner = [
      'I0914 09:23:36.581121       1 driver.go:73] Driver: ru.yandex.s3.csi ',
      'I0914 09:23:36.581158       1 driver.go:74] Version: v1.2.0 ',
      'I0914 09:23:36.581166       1 driver.go:81] Enabling controller service capability: CREATE_DELETE_VOLUME',
      'I0914 09:23:36.581174       1 driver.go:93] Enabling volume access mode: MULTI_NODE_MULTI_WRITER',
    ];
    const r = explainText([
      'I0914 09:23:36.443263       1 main.go:110] Version: v1.2.0-0-g6ef000ae',
      'I0914 09:23:37.445143       1 node_register.go:67] Registration Server started at: /registration/ru.yandex.s3.csi-reg.sock',
      'I0914 09:23:38.590867       1 main.go:87] Received NotifyRegistrationStatus call: &RegistrationStatus{PluginRegistered:true,Error:,}',
      ...banner,
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['register', 'register', 'register', 'other', 'other', 'other', 'other']);
    expect(stagesOf(['E0429 03:53:48.708703       1 utils.go:101] GRPC error: Timeout waiting for mount', ...banner.slice(0, 1)])).toEqual(['mount', 'other']);
  });
  it('a claim a StatefulSet or an operator creates for its pod starts that claim\'s provisioning; the pod it creates does not', () => {
    expect(stagesOf([
      '  Normal   SuccessfulCreate     41m                statefulset-controller  create Claim data-polardbx-dn-1 Pod polardbx-dn-1 in StatefulSet polardbx-dn success',
      '2m39s       Normal    SuccessfulCreate                  kraftcontroller/kraftcontroller                 resource type *v1.PersistentVolumeClaim successfully created',
      '  Normal   SuccessfulCreate     41m                statefulset-controller  create Pod polardbx-dn-1 in StatefulSet polardbx-dn successful',
    ])).toEqual(['provision', 'provision', 'other']);
  });
  it('a klog header whose message a poster wrapped onto the next line is read with it', () => {
    const r = explainText([
      'Aug 11 09:17:42 kube-01 d8-kubelet-forker[14693]: E0811 09:17:42.907060   14694 nestedpendingoperations.go:301] ',
      'Operation for "{volumeName:kubernetes.io/rbd/kube:kubernetes-dynamic-pvc-018409f2 ',
      'podName: nodeName:}" failed. No retries permitted until 2021-08-11 09:17:43.407003409 +0300 MSK ',
      'm=+1698521.295086326 (durationBeforeRetry 500ms). Error: "UnmountDevice failed for volume \\"pvc-323d06cc\\" (UniqueName: \\"kubernetes.io/rbd/kube:kubernetes-dynamic-pvc-018409f2\\") on node \\"kube-01\\" : rbd: failed to unmap device /dev/rbd10, error exit status 16"',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['log', 'unmount'], ['continuation', 'unmount'], ['continuation', 'unmount'], ['continuation', 'unmount']]);
    // (a record that ends with its logger's caller, "… [mount_unix.go:640]", waits for no message)
    const j = explainText([
      '2024/04/25 03:38:48.699661 juicefs[157] <INFO>: Mounting volume xx at /jfs/juicefs-pv-utpxzh ... [mount_unix.go:640]',
      'Operation for the next record',
    ].join('\n'), knowledge).lines;
    expect(j[1]!.kind).not.toBe('continuation');
  });
  it('the quota the kubelet gives an emptyDir\'s directory is its SetUp\'s', () => {
    expect(stagesOf(['I0416 17:38:13.086019  157568 empty_dir.go:306] Set quota on /var/lib/kubelet/pods/e5149231-3a81-41e0-87be-579846f6caea/volumes/kubernetes.io~configmap/config failed assign quota FAILED'])).toEqual(['mount']);
  });
});

describe('round of 2026-12-07 (14): a driver registering its servers, a describe\'s volume names, the API server refusing a claim\'s size', () => {
  it('the next line a healthy system prints is said of the reader\'s volume, not with our flow\'s names', () => {
    const r = explainText('I0811 09:17:40.100000   14694 reconciler.go:224] operationExecutor.MountVolume started for volume "data" (UniqueName: "kubernetes.io/csi/nfs.csi.k8s.io^vol-1") pod "web-0" (UID: "0f1e")', knowledge);
    expect(r.summary.nextExpected?.summary).toBe('The kubelet waits for the VolumeAttachment of the volume to be attached.');
    // (the step it links to is our flow's, with its own names)
    expect(r.summary.nextExpected?.step?.summary).toMatch(/pvc-[0-9a-f]{8}/);
    expect(r.summary.verdict).not.toMatch(/pvc-[0-9a-f]{8}/);
  });
  it('a driver registering its own gRPC services as it starts is no registration, nor are the start-up lines after it', () => {
    expect(stagesOf([
      'I1201 20:11:53.831724       1 driver.go:113] Registering Node Server',
      'I1201 20:11:53.831742       1 driver.go:115] Registering Controller Server',
      'I1201 20:11:53.831752       1 driver.go:118] Starting efs-utils watchdog',
      'I1201 20:11:53.832163       1 driver.go:124] Starting reaper',
    ])).toEqual(['other', 'other', 'other', 'other']);
    // (the registrar's registration is still the registration)
    expect(stagesOf(['I0914 09:23:37.445143       1 node_register.go:67] Registration Server started at: /registration/efs.csi.aws.com-reg.sock'])).toEqual(['register']);
  });
  it('a hyphenated name alone on its line heads what follows, a describe\'s volume, whatever the name says', () => {
    const r = explainText([
      'Volumes:',
      '  mountpoint-dir:',
      '    Type:          HostPath (bare host directory volume)',
      '    Path:          /var/lib/kubelet/pods',
      '  registration-dir:',
      '    Type:          HostPath (bare host directory volume)',
      '    Path:          /var/lib/kubelet/plugins_registry',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['other', 'other', 'other', 'other', 'other', 'other', 'other']);
    expect([r[1]!.kind, r[4]!.kind]).toEqual(['decoration', 'decoration']);
  });
  it('the API server refusing a claim\'s size is the provisioning or the resize it refused, though kubectl printed it', () => {
    expect(stagesOf([
      'Error from server (Forbidden): persistentvolumeclaims "git" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 1G.',
      'error: persistentvolumeclaims "csi-pvc1" could not be patched: persistentvolumeclaims "csi-pvc1" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
    ])).toEqual(['provision', 'resize']);
    // (kubectl's other refusals stay its own)
    expect(stagesOf(['Error from server (BadRequest): a container name must be specified for pod csi-rbdplugin-x, choose one of: [driver-registrar csi-rbdplugin]'])).toEqual(['other']);
  });
});

describe('properties', () => {
  it('any string gives one result per line, numbered 1…n, and no exception', () => {
    const real = runScenario('pod-migration', { k8s: '1.20' }).steps.filter((s) => s.log).map((s) => s.log!);
    const piece = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom(...real), fc.constantFrom('\n', '\r\n', '\r', '  ', 'Events:', '  Warning  FailedMount  1s  kubelet  x'));
    fc.assert(fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
      const text = parts.join('');
      const r = explainText(text, knowledge);
      const n = splitLines(text).length;
      expect(r.lines.length).toBe(n);
      r.lines.forEach((l, i) => expect(l.line).toBe(i + 1));
      expect(typeof r.summary.verdict).toBe('string');
    }), { numRuns: Math.min(RUNS, 1000) });
  });
});

describe('what the mutation run of stop 62 left untested, and what reading for it found', () => {
  const record = (file: string, severity: string, message: string): string => `${severity}0212 07:23:36.000002       1 ${file}] ${message}`;
  const unmountInController = record('volume.go:144', 'E', 'failed to unmount /var/lib/kubelet/plugins/csi-cephfsplugin/controller/volumes/root-csi-vol-5b7c with error cephfs: umount failed');
  it('ControllerGetVolume\'s request, only a volume id, is the health monitor\'s question, not a DeleteVolume, nor are the driver\'s next lines', () => {
    const r = explainText([
      record('utils.go:97', 'I', 'GRPC call: /csi.v1.Controller/ControllerGetVolume'),
      record('utils.go:98', 'I', 'GRPC request: {"volume_id":"0001-0009-rook-ceph-0000000000000001-5b7c"}'),
      unmountInController,
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['other', 'other', 'unmount']);
    // (the same request posted without its call line is DeleteVolume's, and so is the driver's unmount after it)
    expect(stagesOf([record('utils.go:98', 'I', 'GRPC request: {"volume_id":"0001-0009-rook-ceph-0000000000000001-5b7c"}'), unmountInController])).toEqual(['delete', 'delete']);
  });
  it('only a request names the call its fields belong to: a response with the same fields starts no call', () => {
    const r = stagesOf([record('utils.go:98', 'I', 'GRPC response: {"volume_id":"0001-0009-rook-ceph-0000000000000001-5b7c"}'), unmountInController]);
    expect(r[1]).toBe('unmount');
  });
  it('a request posted without its call line names the call its error line fails: CreateVolume, ControllerPublishVolume, ControllerUnpublishVolume', () => {
    const error = record('utils.go:101', 'E', 'GRPC error: rpc error: code = Internal desc = could not find device for volume vol-0def: mount point not found');
    expect(stagesOf([record('utils.go:98', 'I', 'GRPC request: {"capacity_range":{"required_bytes":10737418240},"name":"pvc-8c7e1b6a","parameters":{"server":"10.0.0.5"},"volume_capabilities":[{"AccessType":{"Mount":{}},"access_mode":{"mode":5}}]}'), error]))
      .toEqual(['provision', 'provision']);
    expect(stagesOf([record('utils.go:98', 'I', 'GRPC request: {"node_id":"i-0abc","volume_capability":{"AccessType":{"Mount":{"fs_type":"ext4"}},"access_mode":{"mode":1}},"volume_id":"vol-0def"}'), error]))
      .toEqual(['attach', 'attach']);
    expect(stagesOf([record('utils.go:98', 'I', 'GRPC request: {"node_id":"i-0abc","volume_id":"vol-0def"}'), error])).toEqual(['detach', 'detach']);
    // (alone, the error reads from its words)
    expect(stagesOf([error])).toEqual(['mount']);
  });
  it('a gRPC line whose fields or call line already say what it is stays so; only an undecided one is read from the paste', () => {
    const r = explainText([
      record('utils.go:98', 'I', 'GRPC response: {"capabilities":[{"Type":{"Rpc":{"type":1}}}]}'),
      record('utils.go:98', 'I', 'GRPC response: {}'),
      record('utils.go:98', 'I', 'GRPC request: {"volume_id":"v-1","volume_path":"/var/lib/kubelet/pods/0f1e/volumes/kubernetes.io~csi/pvc-1/mount"}'),
      record('utils.go:101', 'E', 'GRPC error: rpc error: code = Internal desc = mount failed: exit status 32'),
      record('identity.go:40', 'I', 'GRPC call: /csi.v1.Identity/Probe'),
      record('identity.go:41', 'I', 'GRPC response: {}'),
      record('utils.go:101', 'E', 'GRPC error: rpc error: code = Internal desc = mount failed: exit status 32'),
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.stage)).toEqual(['other', 'mount', 'other', 'mount', 'other', 'other', 'mount']);
  });
  it('a request that names a volume and more is not DeleteVolume\'s', () => {
    expect(stagesOf([record('utils.go:98', 'I', 'GRPC request: {"volume_context":{"fsName":"myfs"},"volume_id":"v-1"}')])).toEqual(['other']);
    // (nor when a logger kept the fields' order, the volume first)
    expect(stagesOf([record('utils.go:98', 'I', 'GRPC request: {"volume_id":"v-1","volume_context":{"fsName":"myfs"}}')])).toEqual(['other']);
    expect(stagesOf([record('utils.go:98', 'I', 'GRPC request: {"volume_id":"v-1","secrets":"***stripped***"}')])).toEqual(['delete']);
  });
  it('a line under a whole klog record, or under a header alone after a blank line, is not the header\'s message', () => {
    const whole = explainText([
      record('nestedpendingoperations.go:301', 'E', 'Operation for "{volumeName:kubernetes.io/csi/x^vol-1 podName: nodeName:}" failed. No retries permitted until 2021-08-11 09:17:43.407003409 +0300 MSK m=+1698521.295086326 (durationBeforeRetry 500ms). Error: "UnmountDevice failed for volume \\"pvc-1\\" : rbd: failed to unmap device /dev/rbd10"'),
      'Operation for "{volumeName:kubernetes.io/csi/x^vol-2 podName:uid-2 nodeName:}" failed. No retries permitted until 2021-08-11 09:17:43.407003409',
    ].join('\n'), knowledge).lines;
    expect(whole[1]!.kind).not.toBe('continuation');
    // (a poster's sentence under a short record is theirs; under a header alone it is the header's message)
    const said = (head: string): string[] => explainText([head, 'The pod stays Pending.'].join('\n'), knowledge).lines.map((l) => l.kind);
    expect(said('I0811 09:17:40.100000   14694 reconciler.go:224] Reconciler: start to sync state now')).toEqual(['log', 'unrelated']);
    expect(said('I0811 09:17:40.100000   14694 reconciler.go:224] ')).toEqual(['log', 'continuation']);
    // (and a fence between a header alone and the next line parts them)
    const fenced = explainText(['E0811 09:17:42.907060   14694 nestedpendingoperations.go:301] ', '```', 'Operation for "{volumeName:kubernetes.io/csi/x^vol-2 podName:uid-2 nodeName:}" failed.'].join('\n'), knowledge).lines;
    expect(fenced.map((l) => l.kind)).toEqual(['log', 'decoration', 'unrelated']);
    const gap = explainText(['E0811 09:17:42.907060   14694 nestedpendingoperations.go:301] ', '', 'Operation for "{volumeName:kubernetes.io/csi/x^vol-2 podName:uid-2 nodeName:}" failed.'].join('\n'), knowledge).lines;
    expect(gap.map((l) => l.kind)).toEqual(['log', 'blank', 'unrelated']);
  });
  it('a line that only begins like a driver\'s banner says what it says; a server registered with no space between its words is start-up too', () => {
    expect(stagesOf([record('nodeserver.go:73', 'E', 'Driver: nfs.csi.k8s.io mount failed for volume pvc-1: exit status 32')])).toEqual(['mount']);
    expect(stagesOf([record('nodeserver.go:73', 'I', 'Version: v1.2.0 does not support NodeStageVolume, mounting without staging')])).toEqual(['mount']);
    expect(stagesOf([record('driver.go:113', 'I', 'Registering NodeServer')])).toEqual(['other']);
    // (and read with the lines around it like any other line of its program)
    const timeout = record('utils.go:101', 'E', 'GRPC error: Timeout waiting for mount');
    expect(stagesOf([timeout, record('nodeserver.go:73', 'E', 'Driver: nfs.csi.k8s.io returned an error'), timeout])).toEqual(['mount', 'mount', 'mount']);
  });
  it('a Ceph tool\'s log lines in the older time format under an Event\'s message posted alone are its stderr too', () => {
    const r = explainText([
      'MountVolume.MountDevice failed for volume "pvc-ee1a5bf1" : rpc error: code = Internal desc = rbd: map failed exit status 1, rbd output:',
      '2019-02-13 12:15:37.021148 7fddbda08d40 -1 auth: unable to find a keyring on /etc/ceph/keyring: (2) No such file or directory',
      'rbd: sysfs write failed',
      'Later the pod was deleted.',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['event', 'mount'], ['continuation', 'mount'], ['continuation', 'mount'], expect.anything()]);
    expect(r.slice(1, 3).map((l) => l.continues)).toEqual([1, 1]);
  });
  it('an operator that failed to create a claim has started no provisioning, whatever its message ends with', () => {
    expect(stagesOf(['  Warning  FailedCreate  12s  kraftcontroller/kraftcontroller  resource type *v1.PersistentVolumeClaim could not be created: persistentvolumeclaims "data-0" is forbidden: exceeded quota'])).toEqual(['other']);
  });
  it('a failed operation\'s line says whose it is by the operation its error names, else by its key', () => {
    const key = (node: string, error: string): string => record('nestedpendingoperations.go:301', 'E', `Operation for "{volumeName:kubernetes.io/csi/x^vol-1 podName: nodeName:${node}}" failed. No retries permitted until 2021-08-11 09:17:43.407003409 +0300 MSK m=+1698521.295086326 (durationBeforeRetry 500ms). Error: "${error}"`);
    const [unmount] = explainText(key('', 'UnmountDevice failed for volume \\"pvc-1\\" : rbd: failed to unmap device /dev/rbd10'), knowledge).lines;
    expect(unmount).toMatchObject({ component: 'kubelet', stage: 'unmount' });
    const [attach] = explainText(key('node-1', 'AttachVolume.Attach failed for volume \\"pvc-1\\" : rpc error: code = Internal desc = boom'), knowledge).lines;
    expect(attach).toMatchObject({ component: 'attach-detach-controller', stage: 'attach' });
    // (its explanation names no placeholder it could not fill)
    expect(attach!.explanation).not.toContain('…');
    expect(attach!.explanation).toMatch(/^The attach or detach operation failed/);
    // (a single-node volume's attach keys on the volume alone, as the kubelet's device operations do: the error decides)
    expect(explainText(key('', 'AttachVolume.Attach failed for volume \\"pvc-1\\" : rpc error: code = Internal desc = boom'), knowledge).lines[0])
      .toMatchObject({ component: 'attach-detach-controller', stage: 'attach' });
    // (an error that names no operation: a node or a pod in the key says whose, and the operation the paste showed starting
    // on the volume is the one that failed)
    const panic = 'recovered from panic \\"runtime error: invalid memory address or nil pointer dereference\\"';
    expect(explainText(key('node-1', panic), knowledge).lines[0]!.component).toBe('attach-detach-controller');
    const podKey = record('nestedpendingoperations.go:301', 'E', `Operation for "{volumeName:kubernetes.io/nfs/uid-2-data podName:uid-2 nodeName:}" failed. No retries permitted until 2021-08-11 09:17:43.407003409 +0300 MSK m=+1698521.295086326 (durationBeforeRetry 500ms). Error: "${panic}"`);
    const kubelet = explainText([
      'I0131 20:18:19.990091  100500 reconciler_common.go:172] "operationExecutor.UnmountVolume started for volume \\"data\\" (UniqueName: \\"kubernetes.io/nfs/uid-2-data\\") pod \\"uid-2\\" (UID: \\"uid-2\\") "',
      podKey,
    ].join('\n'), knowledge).lines;
    expect(kubelet.map((l) => l.stage)).toEqual(['unmount', 'unmount']);
    expect(kubelet[1]!.component).toBe('kubelet');
    // (an older key with no fields: the operation its error names)
    const old = record('nestedpendingoperations.go:262', 'E', 'Operation for "\\"kubernetes.io/csi/x^vol-1\\"" failed. No retries permitted until 2019-08-11 09:17:43.407003409 +0000 UTC (durationBeforeRetry 2s). Error: "MountVolume.SetUp failed for volume \\"pvc-1\\" : rpc error"');
    expect(explainText(old, knowledge).lines[0]).toMatchObject({ component: 'kubelet', stage: 'mount' });
  });
});

describe('round of 2026-12-07 (15): structured records without their header, RBAC refusals, a backend image that will not go, a claim\'s deletion', () => {
  it('klog\'s structured records with their headers cut off are a record a line, and a log setting\'s name is no formatting', () => {
    const r = explainText([
      '"Read CSI_LOG_FORMAT from log configuration file" format=text',
      '"Read CSI_LOG_LEVEL from log configuration file" fields.level=info',
      '"array configuration file" file=/vxflexos-config/config',
      '"unable to get node list" error="csinodes.storage.k8s.io is forbidden: User \\"system:serviceaccount:vxflexos:vxflexos-node\\" cannot list resource \\"csinodes\\" in API group \\"storage.k8s.io\\" at the cluster scope"',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.kind === 'continuation')).toEqual([false, false, false, false]);
    expect(r.map((l) => l.stage)).toEqual(['other', 'other', 'other', 'other']);
  });
  it('a list or a watch refused by RBAC is a program\'s informers, unless the line says which operation it kept from running', () => {
    expect(stagesOf(['E1206 16:31:23.921143       1 node.go:40] failed to list CSINodes: csinodes.storage.k8s.io is forbidden: User "system:serviceaccount:kube-system:csi-node-sa" cannot watch resource "csinodes" in API group "storage.k8s.io" at the cluster scope'])).toEqual(['other']);
    expect(stagesOf(['E0424 08:40:25.014427       1 controller.go:682] Error watching for provisioning success, can\'t provision for claim "default/mysql-data-disk": events is forbidden: User "system:serviceaccount:kube-system:storage-provisioner" cannot list resource "events" in API group "" in the namespace "default"'])).toEqual(['provision']);
  });
  it('the service account an RBAC refusal names is who asked, not what for', () => {
    expect(stagesOf(['F1206 16:31:23.921143       1 driver.go:131] failed to get node "worker-1" information: nodes "worker-1" is forbidden: User "system:serviceaccount:ceph-csi-rbd:ceph-csi-rbd-provisioner" cannot get resource "nodes" in API group "" at the cluster scope'])).toEqual(['other']);
  });
  it('a backend image that will not be removed is the deletion, whatever the backend answers', () => {
    expect(stagesOf(['E0126 12:46:49.160690      1 rbd_util.go:689] ID: 251311 Req-ID: 0001-0024-92ab6c78-7edc-11ee-aec4-5e807f521aec-0000000000000006-b7dc20db-47ad-42a5-8d6d-37b40afd3af1 failed to delete rbd image: kubernetes/csi-vol-b7dc20db-47ad-42a5-8d6d-37b40afd3af1-temp, rbd: ret=-39, Directory not empty']))
      .toEqual(['delete']);
    // (a pod's volume directory that still holds files is still the unmount's clean-up)
    expect(stagesOf(['E0126 12:46:49.160690    4047 csi_mounter.go:400] kubernetes.io/csi: failed to remove dir [/var/lib/kubelet/pods/0f1e/volumes/kubernetes.io~csi/pvc-1/mount]: remove /var/lib/kubelet/pods/0f1e/volumes/kubernetes.io~csi/pvc-1/mount: directory not empty'])).toEqual(['unmount']);
  });
  it('the PV controller handling a claim\'s deletion is the reclaim that follows', () => {
    expect(stagesOf(['I0810 20:44:53.054395       1 pv_controller_base.go:385] deletion of claim "e2e-tests-pv-6k876/pvc-x7grs" was already processed'])).toEqual(['delete']);
  });
  it('a logger\'s record whose field names the CSI call is that call\'s, whatever its program did before', () => {
    const r = stagesOf([
      'time="2025-10-03T08:19:19Z" level=info msg="resource not temporary (not created by Attach) not deleting" linstorCSIComponent=client targetNode=k8sw-c03-az1-03 volume=pvc-5526786f',
      'time="2025-10-03T08:19:20Z" level=debug msg="method called" linstorCSIComponent=driver method=/csi.v1.Controller/ControllerUnpublishVolume nodeID= provisioner=linstor.csi.linbit.com req="volume_id:\\"pvc-5526786f\\"  node_id:\\"k8sw-c03-az1-03\\""',
    ]);
    expect(r[1]).toBe('detach');
  });
  it('kubectl\'s answer about a StorageClass, echoed by a test harness, is no volume\'s step', () => {
    expect(stagesOf(['Dec 20 14:27:07.619: INFO: stdout: "storageclass.storage.k8s.io \\"csi-rbd-sc\\" deleted\\n"'])).toEqual(['other']);
    expect(stagesOf(['Dec 20 14:27:07.619: INFO: stdout: "storageclass.storage.k8s.io/csi-rbd-sc created\\n"'])).toEqual(['other']);
  });
});

describe('round of 2026-12-07 (16): a driver that logs its calls as csi-lib-utils does, a Vault error\'s lines, an image deletion\'s task', () => {
  it('a driver whose interceptor lines read like a sidecar\'s serves the call they name: its device set-up inside CreateVolume is the provisioning', () => {
    const r = stagesOf([
      'I1028 13:25:19.937846       1 server.go:117] GRPC call: /csi.v1.Controller/CreateVolume',
      'I1028 13:25:19.961124       1 volume_path_handler_linux.go:41] Creating device for path: /csi-data-dir/635c6569-f986-11e9-baa6-0242ac110004',
      'I1028 13:25:20.391472       1 volume_path_handler_linux.go:75] Failed device create command for path: /csi-data-dir/635c6569-f986-11e9-baa6-0242ac110004 exit status 1 losetup: /csi-data-dir/635c6569-f986-11e9-baa6-0242ac110004: failed to set up loop device: No such file or directory',
    ]);
    expect(r).toEqual(['provision', 'provision', 'provision']);
    // (the same device set-up with no call logged reads from its words)
    expect(stagesOf(['I1028 13:25:20.391472       1 volume_path_handler_linux.go:75] Failed device create command for path: /csi-data-dir/635c6569-f986-11e9-baa6-0242ac110004 exit status 1 losetup: /csi-data-dir/635c6569-f986-11e9-baa6-0242ac110004: failed to set up loop device: No such file or directory'])).toEqual(['mount']);
  });
  it('a Vault error inside a failed provisioning is that record\'s, across the blank lines it prints', () => {
    const r = explainText([
      '  Warning  ProvisioningFailed  29s (x7 over 61s)  openshift-storage.rbd.csi.ceph.com_csi-rbdplugin-provisioner-7c7dff448f-lpfzl_a5011f17  failed to provision volume with StorageClass "sc-vault": rpc error: code = Internal desc = failed to get KMS: Error making API request.',
      '',
      'URL: PUT https://vault.example.com:8200/v1/auth/kubernetes/login',
      'Code: 400. Errors:',
      '',
      '* invalid role name "csi-kubernetes"',
      '',
      'Nothing else happened.',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => l.kind)).toEqual(['event', 'blank', 'continuation', 'continuation', 'blank', 'continuation', 'blank', 'unrelated']);
    expect(r.slice(2, 6).filter((l) => l.kind === 'continuation').map((l) => [l.stage, l.continues])).toEqual([['provision', 1], ['provision', 1], ['provision', 1]]);
    // (the listed error with its "* " eaten by Markdown, as posts show it, is the record's however it begins)
    const sealed = explainText([...r.slice(0, 5).map((l) => l.text), 'Vault is sealed'].join('\n'), knowledge).lines;
    expect(sealed[5]).toMatchObject({ kind: 'continuation', continues: 1, stage: 'provision' });
    // (a record of its own after "Errors:" is no error it lists)
    const next = explainText([...r.slice(0, 4).map((l) => l.text), '', 'I0811 09:17:40.100000   14694 reconciler.go:224] Reconciler: start to sync state now'].join('\n'), knowledge).lines;
    expect(next[5]!.kind).toBe('log');
  });
  it('ceph-csi\'s image deletion task is the deletion, whatever snapshot its error names', () => {
    expect(stagesOf(['E1029 13:37:31.775717       1 rbd_util.go:192] ID: 20 Req-ID: 0001-0009-rook-ceph-0000000000000002-4a7e unexpected error related to Ceph MGR-based RBD image deletion on cluster ID (rook-ceph):Error EPERM: [errno 1] error opening image csi-vol-4a7e at snapshot None'])).toEqual(['delete']);
  });
});

describe('round of 2026-12-07 (17): what a metrics endpoint answers, a driver\'s own unmount function, a SUSE root prompt', () => {
  it('a Prometheus sample or its HELP and TYPE lines are a measurement the post shows, whatever their labels name', () => {
    const r = explainText([
      '# HELP kubelet_volume_stats_available_bytes [ALPHA] Number of available bytes in the volume',
      '# TYPE kubelet_volume_stats_available_bytes gauge',
      'kubelet_volume_stats_available_bytes{namespace="default",persistentvolumeclaim="thinclaim"} 9.68261632e+08',
      'kubelet_volume_stats_inodes_used{instance="192.168.10.215:10250", persistentvolumeclaim="grafana"} | 0',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['decoration', 'other'], ['decoration', 'other'], ['decoration', 'other'], ['decoration', 'other']]);
    // (and the explanation says what it is: a measurement)
    expect(r[2]!.explanation).toMatch(/^A metrics sample as a Prometheus endpoint or console shows it/);
    expect(explainText(r[2]!.text, buildKnowledge({ lang: 'zh' })).lines[0]!.explanation).toMatch(/^Prometheus 端点或控制台显示的一个指标样本/);
    // (a field and a wrapped record's piece that only look like one are not)
    const notSamples = explainText(['E0811 09:17:42.907060   14694 mount_linux.go:184] Mount failed: exit s', 'tatus 32', 'size: 2147483648'].join('\n'), knowledge).lines;
    expect(notSamples.map((l) => l.kind)).not.toContain('decoration');
  });
  it('a driver\'s own unmount function named in its line is the teardown', () => {
    expect(stagesOf(['I0629 21:49:06.107793    8176 safe_mounter_windows.go:117] SMBUnmount: local path: c:\\var\\lib\\kubelet\\pods\\333c440a\\volumes\\kubernetes.io~csi\\pvc-1\\mount'])).toEqual(['unmount']);
    // (the attach/detach controller's maxWaitForUnmountDuration is no unmount)
    expect(stagesOf(['W0616 10:17:42.907060       1 reconciler.go:224] attacherDetacher.DetachVolume started for volume "pvc-1" (UniqueName: "kubernetes.io/csi/x^vol-1") on node "n1" This volume is not safe to detach, but maxWaitForUnmountDuration 6m0s expired, force detaching'])).toEqual(['detach']);
  });
  it('a SUSE root prompt is a prompt, and what umount answers under it is the command\'s answer', () => {
    const r = explainText([
      'linux-w8ea:/dev/disk/by-path # umount /var/lib/kubelet/pods/1eda3123/volumes/kubernetes.io~csi/pvc-ee6d66c0/mount',
      'umount: /var/lib/kubelet/pods/1eda3123/volumes/kubernetes.io~csi/pvc-ee6d66c0/mount: not mounted',
    ].join('\n'), knowledge).lines;
    expect(r.map((l) => [l.kind, l.stage])).toEqual([['decoration', 'other'], ['unrelated', 'other']]);
  });
});

describe('what the mutation run of stop 63 left untested', () => {
  it('a failed operation whose error names its operation keeps it, whatever started on the volume before', () => {
    const r = stagesOf([
      'I0131 20:18:19.990091  100500 reconciler_common.go:172] "operationExecutor.UnmountVolume started for volume \\"data\\" (UniqueName: \\"kubernetes.io/nfs/uid-2-data\\") pod \\"uid-2\\" (UID: \\"uid-2\\") "',
      'E0811 09:17:42.907060   14694 nestedpendingoperations.go:301] Operation for "{volumeName:kubernetes.io/nfs/uid-2-data podName:uid-3 nodeName:}" failed. No retries permitted until 2021-08-11 09:17:43.407003409 +0300 MSK m=+1698521.295086326 (durationBeforeRetry 500ms). Error: "MountVolume.SetUp failed for volume \\"data\\" (UniqueName: \\"kubernetes.io/nfs/uid-2-data\\") pod \\"web-1\\" (UID: \\"uid-3\\") : mount failed: exit status 32"',
    ]);
    expect(r).toEqual(['unmount', 'mount']);
  });
  it('a request logged under a stale identity call is still read by its fields, a DeleteVolume\'s too', () => {
    expect(stagesOf([
      'I0212 07:23:36.000001       1 utils.go:97] GRPC call: /csi.v1.Identity/Probe',
      'I0212 07:23:36.000002       1 utils.go:98] GRPC request: {"volume_id":"vol-1"}',
    ])).toEqual(['other', 'delete']);
  });
});

describe('round of 2026-12-07 (18): the kernel letting a disk go, and refusing I/O to it', () => {
  it('a disk the kernel lets go is the detach arriving on the node; one gone offline refusing I/O is a symptom, no step', () => {
    expect(stagesOf([
      '[Fri Nov 19 05:30:34 2021] sd 5:0:0:1: [sdn] Synchronizing SCSI cache',
      '[1064807.029410] sd 20:0:0:1: rejecting I/O to offline device',
      '[ 1302.441316] sd 2:0:0:1: [sdb] Attached SCSI disk',
    ])).toEqual(['detach', 'other', 'attach']);
  });
});

describe('round of 2026-12-07 (19): sidecars and drivers that refuse to start or upgrade themselves', () => {
  it('a sidecar refusing to start for want of a capability, a deployer checking mount propagation, a driver upgrading its mount pods: no volume\'s step', () => {
    expect(stagesOf([
      'F1116 14:06:34.656982       1 main.go:158] CSI driver neither supports controller resize nor node resize',
      'time="2022-03-20T12:43:48Z" level=fatal msg="Error deploying driver: CSI cannot be deployed because MountPropagation is not set: Node node2 is not support mount propagation"',
      'E1010 08:47:07.515385    2560 upgrade.go:42] "main: failed to upgrade mount pod" err="dial unix /tmp/juicefs-csi-shutdown.sock: connect: connection refused"',
      '2025-01-09 10:01:02 send SIGHUP to mount pod juicefs-runner-pvc-ff99daa5-zybgib',
      '2025-01-09 10:01:02 POD-SUCCESS [juicefs-runner-pvc-ff99daa5-zybgib] Upgrade binary in jfs-mount',
    ])).toEqual(['other', 'other', 'other', 'other', 'other']);
    // (a resize that fails and a mount pod that mounts stay their own)
    expect(stagesOf([
      'E1116 14:06:34.656982       1 controller.go:282] Resize volume "pvc-1" by resizer "nfs.csi.k8s.io" failed: rpc error: code = Internal desc = quota exceeded',
      'I0109 10:01:02.000000       1 juicefs.go:660] Mount pod juicefs-runner-pvc-ff99daa5-zybgib is ready, mounting /jfs/pvc-1 to the target path',
    ])).toEqual(['resize', 'mount']);
  });
});

describe('round of 2026-12-08 (20): topology, ephemeral volumes, clones, volume health, upgrades', () => {
  it('a program that stops on a signal is done with the call it served: its shutdown lines are no step', () => {
    expect(stagesOf([
      'time="2024-12-31T14:24:21Z" level=info msg="/csi.v1.Node/NodeGetInfo: REP 0002: NodeId=worker-0, MaxVolumesPerNode=0"',
      'time="2024-12-31T14:24:49Z" level=info msg="received signal; shutting down" signal=terminated',
      'time="2024-12-31T14:24:49Z" level=info msg="gracefully stopped"',
    ])).toEqual(['register', 'other', 'other']);
    // (a line that names its own step keeps it, signal or not)
    expect(stagesOf([
      'time="2024-12-31T14:24:21Z" level=info msg="/csi.v1.Node/NodeStageVolume: REQ 0003: VolumeId=vol-1"',
      'time="2024-12-31T14:24:22Z" level=error msg="received signal while staging volume vol-1: NodeStageVolume aborted"',
    ])).toEqual(['mount', 'mount']);
  });

  it('a namespaced get table with no columns of its own lists objects: its rows are no step', () => {
    expect(stagesOf([
      'NAMESPACE   NAME                                            AGE',
      'openebs     snapshot-1b7e4a52-0c4d-4b9e-9d0e-5f6a7b8c9d0e   90s',
    ])).toEqual(['other', 'other']);
  });

  it('Helm release rows (history or list, header or not) are no step of the volume the message above was about', () => {
    expect(stagesOf([
      'AttachVolume.Attach failed for volume "pvc-1" : volume attachment is being deleted',
      '3       \tWed Mar 18 09:12:44 2026\tsuperseded\tsome-csi-driver-0.1.7        \tv0.2.4     \tUpgrade complete',
      '4       \tWed Mar 18 10:01:02 2026\tdeployed  \tsome-csi-driver-0.1.8        \tv0.2.6     \tUpgrade complete',
      'csi-driver\tkube-system\t5\t2024-01-02 03:04:05.678901 +0000 UTC\tfailed\tcsi-driver-1.2.3\t1.2.3',
    ])).toEqual(['attach', 'other', 'other', 'other']);
  });

  it("an hclog multi-line value (the key alone, then '  | ' lines, bare bars included) is its record's", () => {
    expect(stagesOf([
      '2022-08-02T21:11:38.710Z [INFO]  server: Finished unary gRPC call: grpc.method=/v1alpha1.CSIDriverProvider/Mount grpc.time=12ms grpc.code=Unknown',
      '  err=',
      '  | error making mount request: failed to login: Error making API request.',
      '  |',
      '  | URL: POST http://vault:8200/v1/auth/kubernetes/login',
      '  | Code: 503. Errors:',
      '  |',
      '  | * Vault is sealed',
    ])).toEqual(['mount', 'mount', 'mount', 'mount', 'mount', 'mount', 'mount', 'mount']);
    // (a bar line with no key before it is no value's piece: a Markdown table's row stays what it was)
    expect(stagesOf(['  | Field | Value |'])[0]).toBe('other');
  });

  it("an Event's reason alone on its line (a row's columns copied one a line) is its reason's step; a workload's reason is none", () => {
    expect(stagesOf(['FailedMount', 'FailedAttachVolume', '  VolumeResizeFailed  ', 'SuccessfulCreate', 'Failed'])).toEqual(['mount', 'attach', 'resize', 'other', 'other']);
  });

  it("a logger's record of stamp, process id and bracketed level is its program's: a line that names nothing takes the operation it was doing", () => {
    expect(stagesOf([
      '2021-11-17 12:02:08.447326 3935702 [INFO]: Start to stage volume pvc-1 to /var/lib/kubelet/plugins/kubernetes.io/csi/pv/pvc-1/globalmount',
      '2021-11-17 12:02:10.447586 3935702 [ERROR]: there is no source path in the connection info',
    ])).toEqual(['mount', 'mount']);
  });

  it("the secrets-store driver's rotation reconciler is no step of the volume, whatever its error quotes", () => {
    expect(stagesOf([
      'failed to rotate objects for pod shop/web-1, err: rpc error: code = Unknown desc = error making mount request: permission denied',
      'time="2021-03-11T12:38:16Z" level=error msg="[rotation] failed to reconcile spc shop/certs for pod shop/web-1, err: failed to mount"',
    ])).toEqual(['other', 'other']);
    // (the driver's own mount of the same volume is the mount)
    expect(stagesOf(['E0101 00:00:00.000000       1 nodeserver.go:211] "failed to mount secrets store object content" err="rpc error: code = Unknown desc = error making mount request: permission denied" pod="shop/web-1"'])[0]).toBe('mount');
  });
});

describe('round of 2026-12-08 (21): volume limits, SAN plumbing, SELinux, stuck teardowns, local storage', () => {
  it("the scheduler refusing nodes that can attach no more volumes is about the attach; another FailedScheduling is not", () => {
    expect(stagesOf([
      '  Warning  FailedScheduling  2m (x40 over 30m)  default-scheduler  0/4 nodes are available: 3 node(s) exceed max volume count, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }.',
      '  Warning  FailedScheduling  2m  default-scheduler  0/4 nodes are available: 4 Insufficient memory.',
    ])).toEqual(['attach', 'other']);
  });

  it("the kernel's sense data of a failing disk (Illegal Request, Not Ready, Unit Not Ready) is no step; the disk found is the attach", () => {
    expect(stagesOf([
      '[2810068.440595] sd 6:0:0:13: [sdbd] tag#0 Sense Key : Illegal Request [current] ',
      '[2813175.325523] sd 6:0:0:28: [sdda] Unit Not Ready',
      '[2813175.325642] sd 6:0:0:28: [sdda] Sense Key : Not Ready [current] ',
    ])).toEqual(['other', 'other', 'other']);
    expect(stagesOf(['[2813175.100000] sd 6:0:0:28: [sdda] Attached SCSI disk'])[0]).toBe('attach');
  });

  it("multipath -ll's answer (map, size, path group, paths) is no step, with or without its command", () => {
    expect(stagesOf([
      'multipath -ll',
      'mpatha (3600a098038303634722b4d59646c4436) dm-3 NETAPP  ,LUN C-Mode',
      "size=20G features='3 queue_if_no_path pg_init_retries 50' hwhandler='1 alua' wp=rw",
      "`-+- policy='service-time 0' prio=50 status=active",
      '  |- 3:0:0:4  sdc 8:32  active ready running',
      '  `- 4:0:0:4  sdd 8:48  failed faulty running',
    ])).toEqual(['other', 'other', 'other', 'other', 'other', 'other']);
  });

  it('an SELinux denial of an application is no step; one of the mount or the runtime relabelling is', () => {
    expect(stagesOf([
      'type=AVC msg=audit(1700000000.123:42): avc:  denied  { relabelto } for  pid=4242 comm="postgres" name="pgdata" dev="sdb" scontext=system_u:system_r:container_t:s0 tcontext=system_u:object_r:unlabeled_t:s0 tclass=dir',
      'type=SYSCALL msg=audit(1700000000.123:42): arch=c000003e syscall=257 success=no exit=-13 exe="/usr/bin/python3.11"',
    ])).toEqual(['other', 'other']);
    expect(stagesOf(['type=AVC msg=audit(1700000000.123:43): avc:  denied  { relabelfrom } for  pid=1543 comm="containerd" name="data" dev="sdb" scontext=system_u:system_r:container_runtime_t:s0 tclass=dir'])[0]).toBe('mount');
    // (runc's init names itself "runc:[2:INIT]", and the kernel cuts a driver's name to 15 characters, "aws-ebs-csi-dri")
    expect(stagesOf([
      'type=AVC msg=audit(1700000000.123:456): avc:  denied  { mounton } for  pid=23456 comm="runc:[2:INIT]" path="/var/lib/kubelet/pods/1234/volumes/kubernetes.io~csi/pvc-1/mount" dev="overlay" tclass=dir permissive=0',
      'type=AVC msg=audit(1700000000.123:457): avc:  denied  { mounton } for  pid=23457 comm="aws-ebs-csi-dri" path="/var/lib/kubelet/plugins/kubernetes.io/csi/pv/pvc-1/globalmount" dev="nvme1n1" tclass=dir permissive=0',
    ])).toEqual(['mount', 'mount']);
  });

  it("lines behind the same time and pod name are records of their own, not pieces of the one before", () => {
    expect(stagesOf([
      '22:15:42 csi-node-x7k2p GRPC response: {"node_id":"worker-1"}',
      '22:51:53 csi-node-x7k2p NodeStageVolume: VolumeID:53f9947',
      '22:51:56 csi-node-x7k2p Caught signal terminated, terminating.',
      '22:51:56 csi-node-x7k2p PASS',
    ])).toEqual(['register', 'mount', 'other', 'other']);
  });

  it("a root prompt that shows only the working directory ('~/dir# ') is a prompt", () => {
    expect(stagesOf(['~/kube-deploy# iscsiadm -m session -o show'])[0]).toBe('other');
  });
});

describe('round of 2026-12-08 (22): cloud attach errors, access modes, reboots, node plugins restarting, Ceph', () => {
  it("the kubelet's housekeeping and its topology manager removing a container are no step, whatever the kubelet's line before", () => {
    expect(stagesOf([
      'Feb 19 17:44:15 node-1 kubelet[1570]: E0219 17:44:15.628216    1570 kubelet_volumes.go:263] "There were many similar errors. Turn up verbosity to see them." err="orphaned pod \\"0b6c\\" found, but failed to rmdir() volume at path /var/lib/kubelet/pods/0b6c/volumes/kubernetes.io~csi/pvc-1: device or resource busy"',
      'Feb 19 17:44:15 node-1 kubelet[1570]: E0219 17:44:15.628476    1570 kubelet.go:2503] "Housekeeping took longer than expected" err="housekeeping took too long" expected="1s" actual="4s"',
      'Feb 19 17:44:15 node-1 kubelet[1570]: I0219 17:44:15.630265    1570 scope.go:117] "RemoveContainer" containerID="7f46d3846cef"',
    ])).toEqual(['unmount', 'other', 'other']);
  });

  it("df's rows, the node's mount table and a grep of it are a command's answer, no step", () => {
    expect(stagesOf([
      '/var/lib/kubelet/plugins/kubernetes.io/csi/pv/pvc-f738ab36/globalmount/dev  7.3T  7.5G  7.3T   1% /data',
      'ceph-fuse                 1.0G     0  1.0G   0% /var/lib/kubelet/pods/1234/volumes/kubernetes.io~csi/pvc-1/mount',
      '`mount | grep pvc-785e8f1e',
      '/dev/sdc on /var/lib/kubelet/plugins/kubernetes.io/csi/pv/pvc-785e8f1e/globalmount type ext4 (rw,relatime)`',
      'worker-7:~$ mount | grep pvc-785e8f1e',
    ])).toEqual(['other', 'other', 'other', 'other', 'other']);
  });

  it("the kernel's OOM killer is memory pressure, no step, whichever mount helper it kills", () => {
    expect(stagesOf([
      '[Sat Aug 15 12:18:59 2026] mount.efs invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=-997',
      '[Sat Aug 15 12:18:59 2026] [3820126]     0 3820126    29598     8965     5632     3333         0   139264        0          -997 mount.efs',
      '[Sat Aug 15 12:18:59 2026] Memory cgroup out of memory: Killed process 3820126 (mount.efs) total-vm:118392kB',
    ])).toEqual(['other', 'other', 'other']);
  });

  it("mount-utils repairing an XFS volume before it mounts it is the mount", () => {
    expect(stagesOf(['Filesystem corruption was detected for /dev/rbd1, running xfs_repair to repair'])[0]).toBe('mount');
  });
});

describe('round of 2026-12-08 (23): class parameters, API skew, secrets, static volumes, small clusters', () => {
  it("Python's logging record starts a record, and the lines of its message that start none are its; a failed 'format' is the mount", () => {
    expect(stagesOf([
      'I0101 00:00:00.000000       1 server.go:10] GRPC call: /csi.v1.Identity/Probe (a long enough line to be taken for a terminal-wrapped one, 120+)',
      "ERROR:grpc._server:Exception calling application: Operation 'format' failed on filesystem 'xfs': unknown option -m 0",
      'Usage: mkfs.xfs',
      '/* blocksize */\t\t[-b size=num]',
      '/* config file */\t[-c options=xxx]',
      '/* metadata */\t\t[-m crc=0|1,finobt=0|1]',
      '\t\t\t    inobtcount=0|1,bigtime=0|1]',
      '/* force overwrite */\t[-f]',
      '<devicename> is required unless -d name=xxx is given.',
      'I0101 00:00:01.000000       1 server.go:10] GRPC call: /csi.v1.Identity/Probe',
    ])).toEqual(['other', 'mount', 'mount', 'mount', 'mount', 'mount', 'mount', 'mount', 'mount', 'other']);
    expect(stagesOf(["ERROR:app.node:Operation 'format' failed on the device"])[0]).toBe('mount');
    // (a line below it whose words name another step is another program's, not a piece of the message)
    expect(stagesOf(['ERROR:grpc._server:Exception calling application: Failed to mount', 'Detaching volume vol-123 from node i-abc'])).toEqual(['mount', 'detach']);
  });

  it("a tool's prefixed output lines under an error that quotes its output are the error's, with a header or posted alone", () => {
    const quoted = 'rpc error: code = Internal desc = rbd: map failed exit status 2, rbd output: modinfo: ERROR: Module alias rbd not found.';
    expect(stagesOf([`MountVolume.MountDevice failed for volume "pvc-1" : ${quoted}`, 'modprobe: FATAL: Module rbd not found.', 'rbd: sysfs write failed'])).toEqual(['mount', 'mount', 'mount']);
    // (without an output the error quotes, such a line is its own)
    expect(stagesOf(['MountVolume.MountDevice failed for volume "pvc-1" : rpc error: code = Internal desc = timed out', 'modprobe: FATAL: Module rbd not found.'])[1]).toBe('other');
  });
});

describe('round of 2026-12-08 (24): vSphere, Azure, GCE, OpenEBS and Longhorn, smaller clouds', () => {
  it("a storage engine's replicas registering with their controller are no plugin's registration", () => {
    expect(stagesOf([
      'time="2023-04-11T09:13:25Z" level=info msg="Register Replica, Address: 10.0.0.8 UUID: ed0c2413de04 Uptime: 3m12s State: closed"',
      'time="2023-04-11T09:13:25Z" level=warning msg="No of yet to be registered replicas are less than 3 , No of registered replicas: 1"',
    ])).toEqual(['other', 'other']);
    expect(stagesOf(['I0101 00:00:00.000000       1 main.go:164] "Registration process completed" driver="disk.csi.example.com"'])[0]).toBe('register');
  });

  it("an HTTP server's access log line is a request of its own, no piece of the record before it", () => {
    expect(stagesOf([
      'time="2023-04-11T09:13:25Z" level=info msg="Attaching volume pvc-1 to node worker-1"',
      '10.244.0.254 - - [16/Jul/2020:02:24:40 +0000] "GET /v1/volumes/pvc-1 HTTP/1.1" 200 4642 "" "Go-http-client/1.1"',
    ])).toEqual(['attach', 'other']);
  });

  it("external-attacher's 'CSINode … does not contain driver' is the attach's error", () => {
    // (posted in backticks, which keep it from the catalog's line: read by its words)
    expect(stagesOf(['`CSINode worker-1 does not contain driver disk.csi.example.com`'])[0]).toBe('attach');
  });

  it('a describe field behind a backtick and a prompt with no command are no step', () => {
    expect(stagesOf(['`Name:          data-claim'])).toEqual(['other']);
    expect(stagesOf(['  Warning  FailedAttachVolume  2m  attachdetach-controller  AttachVolume.Attach failed for volume "pvc-1" : rpc error: code = DeadlineExceeded desc = context deadline exceeded', 'core@node-1:~$'])).toEqual(['attach', 'other']);
  });
});
