/**
 * Which stage of a volume's life a log line belongs to. One rule for the lines the cluster prints and
 * the lines the log explainer reads, so a trace and its explanation always agree:
 * - node-driver-registrar does nothing but registration: all its lines are `register`;
 * - a generic gRPC interceptor line takes its CSI method's stage (Identity and capability calls: other);
 * - a generic "operation failed" line (nestedpendingoperations, the gRPC error line) takes the stage
 *   its error text talks about;
 * - otherwise the message definition's stage.
 */
import type { Stage } from './messages.ts';
import { stageOfMethod } from './csi.ts';

/** Messages whose own text is generic: their error text says what failed. */
export const STAGE_FROM_ERROR: ReadonlySet<string> = new Set([
  'kubelet.operationFailed', 'attachDetachController.operationFailed',
  'externalProvisioner.grpcError', 'externalAttacher.grpcError', 'externalResizer.grpcError', 'externalAttacher.errorProcessing',
  'csiControllerPlugin.grpcError', 'csiNodePlugin.grpcError', 'csiControllerPlugin.cephGrpcError', 'csiNodePlugin.cephGrpcError',
]);

/** a sidecar's identity and capability handshakes with the driver (lineStage: `other` unless their payload says more) */
const IDENTITY = /(GetPluginInfo|GetPluginCapabilities|Probe|ControllerGetCapabilities|NodeGetCapabilities|GetCapacity|ListVolumes)$/;
/**
 * Whether a CSI method (a bare name, or the full "/csi.v1.Node/NodeGetVolumeStats") has no stage of its own: those handshakes,
 * and the questions about one volume that no step of its life asks (its capabilities, statistics, state).
 */
export const isHandshakeMethod = (method: string): boolean => IDENTITY.test(method) || /(ValidateVolumeCapabilities|NodeGetVolumeStats|ControllerGetVolume)$/.test(method);

/**
 * ceph-csi's request id is the request's name for the calls that create (utils.go getReqID): CreateVolume's is the PV's
 * name, "pvc-<claim UID>", a CreateSnapshot's "snapshot-<VolumeSnapshot UID>"; every other call's is a volume or snapshot id
 */
const CEPH_CREATE_VOLUME_REQ = /\bReq-ID: pvc-[0-9a-f]{8}-[0-9a-f]{4}-/;
const CEPH_CREATE_SNAPSHOT_REQ = /\bReq-ID: (group)?snapshot-[0-9a-f]{8}-[0-9a-f]{4}-/;

/** Keyword rules, most specific first (unmount before mount, detach before attach). */
const KEYWORD_STAGE: Array<[RegExp, Stage]> = [
  // the API server refusing an update of a claim: shrinking its request is a resize refused ("spec.resources.requests.storage:
  // Forbidden: field can not be less than previous value", ValidatePersistentVolumeClaimUpdate); changing any other field
  // of a claim once it exists ("spec: Forbidden: spec is immutable after creation except resources.requests …", a chart's
  // new storageClassName) is no step of the volume's at all: the claim stays as it was
  [/\bfield can not be less than previous value\b/, 'resize'],
  [/\bspec is immutable after creation\b/, 'other'],
  // the API server's audit log records each request it served ({"kind":"Event","apiVersion":"audit.k8s.io/v1",…,"verb":"get",
  // "requestURI":"/apis/storage.k8s.io/v1/csinodes/…"}): its bookkeeping, whoever asked and why (as its httplog lines)
  [/"apiVersion":\s*"audit\.k8s\.io\/v1(beta1)?"/, 'other'],
  // secrets-store-csi-driver's NodePublishVolume reading the pod's SecretProviderClass ("failed to get secretproviderclass
  // default/azure-kvname, error: …", getSecretProviderItem in pkg/secrets-store/utils.go; its e2e waits for the words as the
  // pod's mount failure): the publish
  [/\bfailed to get secretproviderclass\b/i, 'mount'],
  // installing the components that do the steps is none of them: an install script's or kubectl apply's output ("Created CRD
  // volumesnapshots.snapshot.storage.k8s.io", "Deployed VolumeSnapshot CRDs", "Start snapshot-controller deployment...",
  // "deployment.apps/snapshot-controller image updated", "Created RBACs for snapshot-controller")
  [/\b(creat|deploy|install|apply|appli)(ed|ing|e|s)?\s+(the\s+)?([\w-]+\s+)?(CRDs?|RBACs?|CustomResourceDefinitions?)\b|\b(CRDs?|RBACs?) (for \S+ )?(created|deployed|installed|applied)\b|\b(deploy|install)(ing|ed)?\b.*\b(snapshot-controller|csi-snapshotter|snapshot-validation-webhook)\b|\b(snapshot-controller|csi-snapshotter|snapshot-validation-webhook) (deployment|installation)\b|^\s*(deployment|daemonset|statefulset|customresourcedefinition|clusterrole|clusterrolebinding|serviceaccount|role|rolebinding|service)\.[\w.-]*\/\S+ (created|configured|unchanged|deleted|image updated|serverside-applied)\b/i, 'other'],
  [/unable to attach or mount|unmounted volumes=|unattached volumes=/i, 'mount'],
  // the PV controller's ExternalProvisioning message in its later form ("Waiting for a volume to be created either by the
  // external provisioner '%s' or manually by the system administrator. If volume creation is delayed, please verify that the
  // provisioner is running and correctly registered.", pv_controller.go:1837 at 1.36): the provisioning, "registered" or not
  [/\bWaiting for a volume to be created,? either by (the )?external provisioner\b/i, 'provision'],
  // a program starting its loops ("Starting provisioner controller …", "Starting save volume queue", "starting csi-lvmplugin-provisioner") is no volume's step
  [/\b[Ss]tart(ing|ed) ([\w-]+ ){0,2}(\w+-)*(controller|queue|workers?|provisioner|resizer|attacher|snapshotter)\b|not watching VolumeAttachments|\bStarting CSI \w+$|\bcontroller initialized\b|\bcaches populated\b|\bbecame leader\b/, 'other'],
  // the container runtime refusing a container's Bidirectional mount propagation (docker's "linux mounts: Path … is mounted on
  // / but it is not a shared mount", a node plugin that cannot start): the node's set-up, no volume's step
  [/\bis mounted on \S+ but it is not a shared mount\b/, 'other'],
  // a driver registering its own gRPC services as it starts ("Registering Node Server", "Registering Controller Server"):
  // its set-up, not the kubelet's registration of the plugin
  [/\bRegistering (Node|Controller|Identity) ?Server\b/i, 'other'],
  // the container runtime refusing a container's bind mount as written (docker's "Error response from daemon: invalid volume
  // specification: '/var/log/pods:/var/log/pods:ro': …", moby volume/mounts parser): the container's creation, no volume's step
  [/\binvalid volume specification\b/, 'other'],
  // (and its OCI runtime failing to create the container, CRI-O relabelling a volume's directory for SELinux or runc
  // mounting a subPath onto a file: "CreateContainer in sandbox from runtime service failed … relabel failed …",
  // "container create failed: … runc create failed: … error mounting …"): the runtime's error, after the kubelet's mount
  [/\bCreateContainer in sandbox from runtime service failed\b|\bcontainer create failed: |\b(runc|OCI runtime) create failed\b|\bfailed to create (containerd|shim) task\b/, 'other'],
  // a test or CI harness running a command in a pod (the e2e framework's "ExecWithOptions {Command:[…]}" / "ExecWithOptions:
  // execute(POST …/exec?command=…)", test/e2e/framework/pod/exec_util.go; GitLab Runner's Kubernetes executor, "Using attach
  // strategy to execute scripts..."): whatever the command or the pod, the harness's, no volume's step
  [/\bExecWithOptions\b|\bUsing (attach|exec) strategy to execute scripts\b/, 'other'],
  // a workload an admission policy refuses for its containers (Pod Security Admission's "violates PodSecurity
  // \"restricted:latest\": privileged (container \"csi-provisioner\" …)", GKE Autopilot's "container csi-provisioner is
  // privileged; not allowed in Autopilot"): a driver's deployment refused, no volume's step, whatever its containers are named
  [/\bviolates PodSecurity\b|\bnot allowed in Autopilot\b|\[denied by autogke-[\w-]+\]/, 'other'],
  // the EBS driver changing a volume's type, IOPS or throughput (aws-ebs-csi-driver v1.64.0 pkg/driver/controller_modify_volume.go:69
  // "ModifyVolumeProperties called", pkg/cloud/cloud.go:1036 "Received Modify Disk request"): a modification, which no stage
  // names, as the resizer's VolumeModify Events are none
  [/\bModifyVolumeProperties called\b|\bReceived Modify Disk request\b/, 'other'],
  // the snapshot controller and the csi-snapshotter starting their controllers (external-snapshotter v8.6.0
  // cmd/snapshot-controller/main.go:233 "Start NewCSISnapshotController with kubeconfig …", cmd/csi-snapshotter/main.go:248
  // "Start NewCSISnapshotSideCarController with snapshotter …"): start-up, no snapshot's step
  [/\bStart NewCSISnapshot(SideCar)?Controller with\b/, 'other'],
  // cluster-autoscaler's scale-down simulation naming the pod that keeps a node ("Node … cannot be removed: mount-s3/mp-… is
  // not replicated", cluster-autoscaler simulator/cluster.go): no volume's step, whatever the pod's name says
  [/\bNode \S+ cannot be removed: /, 'other'],
  // the keys a kubelet puts in a volume's context only for NodePublishVolume (podInfoOnMount and token requests:
  // pkg/volume/csi/csi_mounter.go podAttributes, podServiceAccountTokenAttrs; "csi.storage.k8s.io/pod.name", "…/serviceAccount.name",
  // "…/ephemeral"): the publish, whatever else the line prints (the provisioner's "csi.storage.k8s.io/pvc/name" is another key)
  [/\bcsi\.storage\.k8s\.io\/(pod\.(name|namespace|uid)|serviceAccount\.(name|tokens)|ephemeral)\b/, 'mount'],
  // a Secrets Store CSI provider serving the driver's Mount call, which it makes for each NodePublishVolume: the Azure
  // provider's GetSecretsStoreObjectContent (pkg/provider/provider.go:256-335 at v1.8.2: "objects string defined in secret
  // provider class", "unmarshaled objects yaml array", "unmarshaled key vault objects", "vault url", "fetching object from key
  // vault", "added file to the gRPC response"; :690 "setting AZURE_ENVIRONMENT_FILEPATH … for custom cloud"; server.go:60
  // "failed to process mount request"); and the Vault provider's login for the mount request (hashicorp/vault-csi-provider,
  // whose server.go:58 names each request's logger "server.provider": client.go:138 "performing vault login",
  // auth/kubernetes_jwt.go:65 "creating service account token bound to pod", "setting Vault namespace")
  [/\b(objects string defined in secret provider class|unmarshaled objects yaml array|unmarshaled key vault objects|fetching object from key vault|added file to the gRPC response|failed to process mount request)\b|"vault url" vaultName=|\bsetting AZURE_ENVIRONMENT_FILEPATH\b|\b(setting Vault namespace|performing vault login|creating service account token bound to pod)\b/, 'mount'],
  // cert-manager's CSI drivers issuing the pod's certificate inside NodePublishVolume: csi-lib's manager.go "Failed to issue
  // certificate, retrying after applying exponential backoff" (csi-driver-spiffe, csi-driver), and the first csi-driver's
  // certmanager.go "cert-manager: waiting for CertificateRequest to become ready …", "… certificate written to file …",
  // "… private key written to file …" (the publish writes them into the pod's volume)
  [/\bFailed to issue certificate, retrying after applying exponential backoff\b|\bcert-manager: (waiting for CertificateRequest to become ready|(CA )?certificate written to file|private key written to file)\b/, 'mount'],
  // the e2e framework waiting for a claim or a volume to bind (test/e2e/framework/pv: "Waiting up to 5m0s for PersistentVolume
  // pvc-… to have phase Bound", "PersistentVolumeClaim … found and phase=Bound (…)"): the provisioning it waits for (its
  // "for PersistentVolumeClaims […] to have phase" names claims, which an earlier rule reads as provisioning)
  [/\bfor PersistentVolume \S+ to have phase Bound\b|\bPersistentVolume(Claim)? \S+ found and phase=Bound\b/, 'provision'],
  // (and for a volume's reclaim: "Waiting up to 2m0s for PersistentVolume pvc-… to get deleted",
  // "PersistentVolume pvc-… found and phase=Released (109ms)", test/e2e/framework/pv/wait.go)
  [/\bfor PersistentVolume \S+ to (get|be) deleted\b|\bPersistentVolume \S+ found and phase=(Released|Failed)\b/, 'delete'],
  // ceph-csi's e2e waiting for a claim's capacity after an expansion (e2e/resize.go "current size in status %v,expected size %v")
  [/\bcurrent size in status\b.*\bexpected size\b/, 'resize'],
  // the API server logging a request it served (k8s.io/apiserver pkg/server/httplog/httplog.go: "PUT /api/v1/persistentvolumes/
  // pvc-…/status: (113.465551ms) 200 [[hyperkube/v1.5.3 …] …]"): the server's bookkeeping, whoever asked and why
  [/\b(GET|PUT|POST|PATCH|DELETE|LIST|WATCH) \/apis?\/\S+: \(\d+(\.\d+)?(µs|ms|s)\) \d{3}\b/, 'other'],
  // a probe of the program's health endpoint (a driver's REST server logging "GET /readiness") is no volume's step
  [/\bRequestURL=\/(readiness|liveness|healthz|readyz|livez)\b|\b(GET|HEAD) \/(readiness|liveness|healthz|readyz|livez)\b/i, 'other'],
  // a kubelet probe of a container (the Readiness/Liveness/Startup probe events) is the application's health, no volume's step
  [/\b(Readiness|Liveness|Startup) probe (failed|errored)\b/i, 'other'],
  // the end of util-linux mount's own error text ("In some cases useful info is found in syslog - try dmesg | tail or so.")
  [/\buseful info is found in syslog\b|\bdmesg \| tail or so\b/i, 'mount'],
  // (and its first words when the file system is not what the mount asked for: "wrong fs type, bad option, bad superblock on …")
  [/\bwrong fs type, bad option, bad superblock\b/i, 'mount'],
  // (and e2fsck's verdict on a device it cannot read as ext2/3/4, which formatAndMount's check prints before it mounts: "The
  // superblock could not be read or does not describe a valid ext2/ext3/ext4 filesystem", e2fsprogs e2fsck/unix.c)
  [/\bThe superblock could not be read or does not describe a (valid|correct) ext2\b/i, 'mount'],
  // a controller registering its informers' handlers ("Register Pod informer for resizer …", external-resizer
  // controller.go) is starting, not a plugin registering
  [/\bRegister(ed|ing)? \w+ informer\b/, 'other'],
  // a program's start-up and cache lines (client-go's "Waiting for caches to sync for snapshot-controller controller",
  // "Caches are synced for …"; glog's "logging before flag.Parse" prefix of a process's very first lines) are no step
  // of the volume the controller's name happens to mention
  [/\b(Waiting for caches to sync|Caches are synced)\b|\blogging before flag\.Parse\b/i, 'other'],
  // a CSI v0 node plugin answering NodeGetId ("node get id called") is the registration's NodeGetInfo of its day; its
  // capabilities answer is the handshake; a plugin removing its old socket is (re)starting
  [/\bnode[ _]?get[ _]?id\b(?! *=)/i, 'register'],
  // the plugin watcher forgetting a socket that went away (plugin_watcher.go:215 handleDeleteEvent, "Removing socket path …
  // from desired state cache"): the registration's, as its "Adding socket path" is
  // (before the rule below, for which a plugin removing its socket is its own restart)
  [/\bRemoving socket path \S* ?from desired state cache\b/, 'register'],
  [/\bnode[ _]get[ _]capabilities\b|\bremov\w* (the )?(old |stale |existing )?(unix )?socket\b/i, 'other'],
  // a VolumeAttachment deleted (or being deleted) is a detach, whatever "attachment" says
  [/\bvolume ?attachments? (\S+ )?(was |is |has been )?(deleted|deleting|removed|being deleted)\b|\b(delet|remov)\w* (the )?volume ?attachment/i, 'detach'],
  // growing a mounted volume's file system is the resize, whatever "mounted" says ("Resizing mounted volume", "Failed to
  // resize mounted filesystem"; mount-utils' "Expanding mounted volume" inside a stage is caught as the staging's below)
  [/\bresiz(e|es|ed|ing) (the )?mounted (volume|file ?system|fs|device)\b/i, 'resize'],
  // the kubelet's CSI mounter removing a pod's mount directory (csi_mounter.go removeMountDir: TearDownAt, or a SetUpAt
  // that failed) is the teardown's cleanup
  [/\bmount dir(ectory)? removal\b|\bremov\w* (the )?mount ?(dir|directory|point)\b/i, 'unmount'],
  // the scheduler filtering out nodes without room for a claim's volume (storage capacity scheduling, a local-volume
  // scheduler extender's predicate "not enough capacity", "node(s) did not have enough free storage") places the volume to provision
  [/\bdid not have enough free storage\b|\bnode\(s\) to place volume\b|\b(filter\w* out|predicate)\b.*\b(not enough|insufficient) (free )?(capacity|storage|space)\b/i, 'provision'],
  // a volume populator filling a new claim from its dataSourceRef (lib-volume-populator, VolSync's, Forklift's: "Unable to populate
  // volume", a "…Populator…" Event reason, "Populator finished") is that claim's provisioning, whatever it copies from (a
  // snapshot, a backup); the kubelet's desired state of world populator is not one
  [/\bpopulat(e|es|ed|ing|ion) (the )?(volume|pvc|claim)\b|\bvolume[ -]?populator\b|(?<!(world|state)[ _]?)\b(?!desired)[a-z]*populator[a-z]*\b/i, 'provision'],
  // a controller's unpublish, named as a driver's metrics or method names it ("azuredisk_csi_driver_controller_unpublish_volume"),
  // is the detach before its "unpublish" reads as the node's
  [/controller[ _-]?unpublish/i, 'detach'],
  // the scheduler's Scheduled event ("Successfully assigned ns/pod to node"): the pod has a node, no volume has a step
  [/^\s*Successfully assigned \S+ to \S+\s*$/, 'other'],
  // a driver's start-up banner listing what it serves (csi-common "Enabling controller service capability: …", democratic-csi
  // "setting default identity volume_expansion caps"), and a program's other start-up lines: the socket it listens on, the
  // unmount behaviour mount-utils detected ("Detected umount with safe 'not mounted' behavior")
  [/\bEnabling (controller |node |group controller |plugin )?(service capability|volume access mode)\b|\bsetting (default )?(identity|controller|node|plugin|group controller)\b[\w ]{0,40}\bcap(abilitie)?s\b|\bListening for connections? on\b|\bDetected umount with (un)?safe\b/i, 'other'],
  // a program starting its metrics endpoint ("set up prometheus server on :29645", csi-driver-smb cmd/smbplugin/main.go:111,
  // the Azure disk, file and blob drivers' main.go; controller-runtime's "Starting metrics server"; the snapshot controller's
  // "Metrics path successfully registered at /metrics", external-snapshotter cmd/snapshot-controller/main.go:229): start-up,
  // whatever "set up" or "registered" reads like (the kubelet's SetUp mounts, a plugin registers with the kubelet)
  [/\bset up (the )?(prometheus|metrics) server\b|\b(start(ing|ed)?|serv(e|es|ing)) (the )?(prometheus|metrics) server\b/i, 'other'],
  [/\bMetrics path successfully registered\b/, 'other'],
  // a program's version banner with its build ("Driver version: 1.7.0, Git commit: 53b6…, build date: …, nodeID: …,
  // mount-s3 version: 1.7.2"): what it is, not what it does (the tools it names, "mount-s3", do nothing yet)
  [/\bversion\s*[:=]\s*"?v?\d+\.\d+\S*,.*\b(git ?commit|build ?date)\b/i, 'other'],
  // a node plugin finding the device file of the disk the controller attached ("device file found
  // device=/dev/disk/by-path/…", "found device /dev/nvme1n1"): the look for it that staging starts with (the node attaches nothing)
  [/\b(device|disk)( file| path)? (was |is )?found\b.*\/dev\/|\bfound (the )?(device|disk)( file| path)?\b[^.]{0,20}\/dev\//i, 'mount'],
  // the GlusterFS FUSE client unmounting the volume it served, as it exits (glusterfs xlators/mount/fuse/src/fuse-bridge.c
  // fuse_thread_proc "unmounting %s", fini "Unmounting '%s'.")
  [/\b0-fuse: [Uu]nmounting\b/, 'unmount'],
  // the in-tree GlusterFS plugin's SetUp failure carries the tail of the mount's client log ("mount failed: …, the
  // following error information was pulled from the glusterfs log to help diagnose this issue: …", v1.20.5
  // pkg/volume/glusterfs/glusterfs.go:426, setUpAtInternal), and that log's lines pasted with it, or from the node's
  // /var/log/glusterfs, are the FUSE client's: "[2017-01-05 18:39:22.250219] E [MSGID: 108006] [afr-common.c:3880:afr_notify]
  // 0-vol1-replicate-0: All subvolumes are down" (the servers' glusterd and its management translator log the same way, and
  // are no mount)
  [/\bthe following error information was pulled from the glusterfs log\b|\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d+\] [IWECDT] \[(MSGID: \d+\] \[)?[\w-]+\.c:\d+:\w+\] (?!0-(glusterd|management)\b)/, 'mount'],
  // an AWS volume's attachment awaited until it reaches the state asked for (in-tree aws.go waitForAttachmentStatus
  // "Waiting for volume %q state: actual=%s, desired=%s", v1.20.5 legacy-cloud-providers/aws/aws.go:2281; the EBS CSI
  // driver's structured "Waiting for volume state" … desired="attached", pkg/cloud/cloud.go): the state asked for is the step,
  // whatever the state it is in ("actual=detached, desired=attached" is an attach; "desired=detached" reads as the detach already)
  [/\bWaiting for volume (\S+ )?state\b.*\bdesired[=:] ?"?attached\b/i, 'attach'],
  // a legacy cloud provider telling which of its interfaces it serves (v1.20.5 legacy-cloud-providers/openstack/
  // openstack.go:728-851, openstack_instances.go:57 "Claiming to support Instances"): start-up, no claim's
  [/\bClaiming to support (Instances|Zones|Routes|LoadBalancer|Clusters)\b/, 'other'],
  // the attach/detach controller reading a node's status.volumesInUse into its actual state of world (v1.20.5
  // attach_detach_controller.go processVolumesInUse, at V(4) after every Node update): bookkeeping, no volume's step
  [/\bprocessVolumesInUse for node\b/, 'other'],
  // file services' controllers inside CreateVolume: the EFS driver making the volume's access point (pkg/cloud/cloud.go:264
  // "Calling Create AP with input: …", pkg/driver/controller.go:295 "Failed to fetch Access Points or Describe File
  // System: …") and the Azure File driver making its share or disk file (pkg/azurefile/azurefile_mgmt_client.go:90 "created
  // share %s in account %s", controllerserver.go:807 "begin to create vhd file(…)"): the provisioning
  [/\bCalling Create AP with input\b|\bFailed to fetch Access Points or Describe File System\b|\bcreated share \S+ in account\b|\bbegin to create vhd file\b/, 'provision'],
  // vSphere CSI's controller placing a new volume by its topology requirement: the node VMs of a zone and the datastores
  // they share ("Obtained list of nodeVMs …", "Obtained shared datastores: …", "Shared datastores … for topologyRequirement",
  // "failed to get shared datastores …", pkg/csi/service/common/commonco/k8sorchestrator/topology.go
  // GetSharedDatastoresInTopology, which only CreateVolume calls): the provisioning
  [/\bObtained list of nodeVMs\b|\b[Ss]hared datastores\b/, 'provision'],
  // a volume registered with the storage system (vSphere CSI's migration service registering an in-tree VMDK as a
  // container volume, "Registering volume: %q using backingDiskURLPath …", "Successfully registered volume %q as container
  // volume", vsphere-csi-driver pkg/apis/migration/migration.go): no plugin's registration with the kubelet
  [/\bregist(er|ers|ered|ering) (the )?(volume|disk|vmdk)\b/i, 'other'],
  // the PV controller's check, inside its delete (or recycle) operation, that the volume is still released before it
  // reclaims it (v1.20.5 pkg/controller/volume/persistentvolume/pv_controller.go:1285-1326 isVolumeReleased, called by
  // deleteVolumeOperation and recycleVolumeOperation): the deletion's
  [/\bisVolumeReleased\b/, 'delete'],
  // SELinux deciding on a relabel of a volume's files (the mount's context= option, or the container runtime relabelling the
  // volume for the container that mounts it: "avc:  denied  { relabelfrom } for  pid=1543 comm=\"containerd\" …")
  [/\bavc:\s+(denied|granted)\s+\{ relabel(from|to)( relabel(from|to))? \}/, 'mount'],
  // the kubelet's desired state of world populator failing to resolve a pod's volume ("Error processing volume %q for pod
  // %q: %v", "Failed to add volume %s (specName: %s) for pod %q to desiredStateOfWorld: %v", v1.20.5
  // pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go:339,353; structured in 1.30, "Error processing
  // volume" … volumeName=): the volume never reaches the reconciler, and the pod waits for its mount
  [/\bError processing volume( "[^"]*" for pod\b|"? .*\bvolumeName=)|\bFailed to add volume\b.*\bto desiredStateOfWorld\b/, 'mount'],
  // the SIG Storage local static provisioner discovering a disk and making its PV (discovery.go "Found new volume of volumeMode
  // %q at host path %q with capacity %d, creating Local PV %q", "Created PV %q for volume at %q"), and its deleter cleaning a
  // released one (deleter.go "Deleting PV %q contents at hostpath %q, mountpath %q", "Error cleaning PV %q", "Starting
  // cleanup of Block PV %q"): provisioning and deletion, whatever "mountpath" reads like; its start-up line naming each
  // class's MountDir and HostDir (common.go) is none
  [/\bFound new volume (of volumeMode "\w+" )?at host path\b|\bCreated PV "[^"]+" for volume at\b/, 'provision'],
  [/\bDeleting PV (file volume |block volume )?"[^"]+" contents at hostpath\b|\bError cleaning PV\b|\bStarting cleanup of Block PV\b/, 'delete'],
  [/\bconfigured with MountDir\b/, 'other'],
  // local-path-provisioner creating the helper pod that makes a claim's directory, and relaying its output ("create the helper
  // pod helper-pod-create-pvc-… into local-path-storage", "Start of helper-pod-create-pvc-… logs", provisioner.go): the
  // provisioning (its delete-pvc- helper reads as the deletion already)
  [/\b(create the helper pod|(Start|End) of) (helper-pod-)?create-pvc-[0-9a-f]{8}-/, 'provision'],
  // the kubelet writing a configMap's, secret's, projected or downward API volume's files in its SetUp ("Error creating
  // atomic writer: …", v1.20.5 pkg/volume/configmap/configmap.go:249, secret/secret.go, projected/projected.go,
  // downwardapi/downwardapi.go SetUpAt): the mount
  [/\bError creating atomic writer\b/, 'mount'],
  // a node plugin computing a mounted volume's usage for the kubelet's stats (NodeGetVolumeStats; csi-driver-host-path's
  // "VolumeStats: stats on targetpath/volumeID …"): a periodic read, no step of the volume's life
  // (or in its own words: DigitalOcean's "node capacity statistics retrieved")
  [/\bVolumeStats\b|\b(capacity|volume|usage|filesystem) statistics\b/i, 'other'],
  // the snapshot controller checking at start-up that the VolumeSnapshot CRDs exist ("Failed to list v1 volumesnapshots with
  // error=…", external-snapshotter cmd/snapshot-controller/main.go:122 ensureCustomResourceDefinitionsExist): no snapshot's step
  [/\bFailed to list v1 volumesnapshot(s|classes|contents)\b/, 'other'],
  // the kubelet's wait for a pod's volumes, in its older wording, even as a piece cut before its volume lists ("Unable to mount
  // volumes for pod …: timeout expired waiting for volumes to attach or mount for pod …", kubelet.go syncPod and
  // volume_manager.go WaitForAttachAndMount before v1.20.5 kubelet.go:1683-1684 made it "Unable to attach or mount
  // volumes"): the mount's, whatever "attach" it names
  [/\bUnable to mount volumes for pod\b|\btimeout expired waiting for volumes to attach( or |\/)mount\b/, 'mount'],
  // Longhorn's clone of a volume from another (longhorn-manager's VolumeCloneInitiated / VolumeCloneCompleted / VolumeCloneFailed
  // Events, made from a snapshot of the source): the new volume's provisioning, whatever snapshot it names
  [/\bVolumeClone(Initiated|Completed|Failed)\b/, 'provision'],
  // a CreateVolume looking for a volume of the same name before it makes one (its idempotence: gluster-csi-driver's "error
  // checking for pre-existing volume"), or a claim bound to a volume made beforehand: the provisioning
  [/\bpre-?existing volume\b/i, 'provision'],
  // the scheduler's volume binder placing a pod's unbound claims: it assumes and binds them to the PVs it matched, or leaves
  // them to provisioning (v1.20.5 pkg/controller/volume/scheduling/scheduler_binder.go:355,428,714,837 "AssumePodVolumes for
  // pod", "BindPodVolumes for pod", "PVC %q is not bound", "Found matching PV"; scheduler_assume_cache.go:328 "Assumed %v
  // %q"; volume_binding.go:257 "Trying to bind volumes for pod"): the claim's binding, the provisioning stage; a pod whose
  // claims are all bound has nothing of the kind ("… all PVCs bound and nothing to do"); (and other schedulers' words for a
  // claim not bound yet, EKS Fargate's "volumes not supported: … because: PVC efs-claim not bound")
  [/\ball PVCs bound and nothing to do\b/, 'other'],
  [/\b(AssumePodVolumes|BindPodVolumes)\b|\bTrying to bind volumes for pod\b|\bFound matching PV "[^"]+" for PVC\b|\bPVC "?[\w.-]+"? (is )?not bound\b|\bAssumed v1\.PersistentVolume(Claim)?\b/, 'provision'],
  // a node plugin waiting for the block device of the iSCSI target it logged into to appear under /dev/disk/by-path
  // (csi-lib-iscsi's and the in-tree iscsi_util.go's waitForPathToExist, a stat that finds nothing yet): the staging
  [/\bwaitForPathToExist\w*\b.*\/dev\/disk\/by-path\/|\bexist false device \/dev\/|\b[Dd]evice not found for:? \/dev\/disk\/by-path\//, 'mount'],
  // the in-tree attachers' WaitForAttach, which MountVolume starts with on the node: "Successfully found attached GCE PD
  // %q." (v1.20.5 pkg/volume/gcepd/attacher.go:270), "… AWS Volume %q at path %q." (awsebs/attacher.go:189), "… Cinder
  // disk" (cinder/attacher.go:245), "… VMDK" (vsphere_volume/attacher.go:183): the disk is on the node, the mount goes on
  [/\bSuccessfully found attached (GCE PD|VMDK|\w+ (disk|volume))\b/i, 'mount'],
  // (and the same WaitForAttach's other lines: "Checking AWS Volume %q is attached at devicePath %q" and its error,
  // attacher.go:182-186; "Checking GCE PD %q is attached." gcepd/attacher.go:263-267; "Checking Cinder disk %q is attached.",
  // "could not find attached Cinder disk" cinder/attacher.go:237-249; "Checking VMDK %q is attached"
  // vsphere_volume/attacher.go:176-180; rbd's "waiting for attach volume", "successfully wait for attach volume"
  // rbd/attacher.go:119-129): the node waiting for the disk, the mount's first step, whatever "attached" says
  [/\bChecking (AWS Volume|GCE PD|Cinder disk|VMDK) "[^"]*" is attached\b|\bError verifying (AWS Volume|GCE PD|VMDK) \("[^"]*"\) is attached\b|\bcould not find attached Cinder disk\b|\brbd: (successfully )?wait(ing)? for attach volume\b/, 'mount'],
  // the in-tree iSCSI, FC and RBD plugins log in to, scan for or map the disk on the node (iscsi_util.go:325-469 AttachDisk,
  // "AttachDisk portal->host map", "AttachDisk: scanning SCSI host", "iscsi: AttachDisk devicePath") inside MountDevice, and
  // log out of or unmap it inside UnmountDevice ("iscsi: successfully detached disk" iscsi/attacher.go:174, "fc: successfully
  // detached disk", "fc: detachFCDisk failed" fc_util.go:278-288, "rbd: detaching device", "rbd: successfully detach
  // device" rbd/attacher.go:246-251, "iscsi detach disk: failed to delete devices" iscsi_util.go:627): the node's
  // mount and teardown, not the controller's attach and detach
  [/\bAttachDisk portal->host map\b|\bAttachDisk: scanning SCSI host\b|\biscsi: AttachDisk devicePath\b/, 'mount'],
  [/\b(iscsi|fc|rbd): (successfully )?detach(ed|ing)? (the )?(disk|device)\b|\biscsi detach disk\b|\bdetachFCDisk failed\b|\bfc: DetachDisk devicePath\b|\bfc: last error occurred during detach disk\b/, 'unmount'],
  // a plugin's SetUpAt undoing a mount that failed half-way ("%s is still mounted, despite call to unmount().  Will try again
  // next sync loop.", v1.20.5 awsebs/aws_ebs.go:421, nfs/nfs.go:281, local/local.go:557 and others): the mount's
  [/\bis still mounted, despite call to unmount\(\)/, 'mount'],
  // Windows nodes: csi-proxy mapping an SMB share for the node (its SMB API's NewSmbGlobalMapping, which runs PowerShell's
  // New-SmbGlobalMapping; "Remote … not mapped. Mapping now!", kubernetes-csi/csi-proxy pkg/server/smb/server.go) is the
  // staging of an SMB or Azure Files volume, its removal the unstaging
  [/\bNew-?SmbGlobalMapping\b|\bRemote \S+ not mapped\. Mapping now!/, 'mount'],
  [/\bRemove-?SmbGlobalMapping\b/, 'unmount'],
  // the kubelet writing a projected volume's files (v1.20.5 pkg/volume/projected/projected.go:201 in SetUpAt, "Error preparing
  // data for projected volume %v for pod %v/%v: %v"): the mount, as the atomic writer's error is
  [/\bError preparing data for projected volume\b/, 'mount'],
  // the Azure cloud provider's configured rate limit for attaching and detaching disks, printed at start-up
  // ("attach/detach disk operation rate limit QPS: …", azure.go): no attach or detach
  [/\battach\/detach disk operation rate limit\b/, 'other'],
  // local-path-provisioner choosing the directory of a claim's volume on its node (provisioner.go getPathOnNode: "config
  // doesn't contain node %v, use DEFAULT_PATH_FOR_NON_LISTED_NODES instead"): the provisioning
  [/\bDEFAULT_PATH_FOR_NON_LISTED_NODES\b/, 'provision'],
  // the rbd tool making a volume's image ("Running command: rbd create replicapool/k8s-dynamic-pvc-…", Rook's old flex
  // provisioner, the in-tree rbd plugin's CreateImage): the provisioning ("rbd snap create" is a snapshot's)
  [/\brbd create [\w.-]+\/[\w.-]+/, 'provision'],
  // Longhorn's own Events: its PV controller binding a PersistentVolume to a Longhorn volume ("Persistent Volume … started to
  // use/reuse Longhorn volume …", reason Start), its volume controller asking the node to mount a volume again after its engine
  // came back ("Volume … requested remount at …", reason Remount, longhorn-manager controller/volume_controller.go)
  [/\bstarted to use\/reuse Longhorn volume\b/, 'provision'],
  [/\brequested remount\b/, 'mount'],
  // grpc-go's own transport line, a client failing to dial a socket ("addrConn.createTransport failed to connect to
  // {/var/lib/kubelet/plugins_registry/…-reg.sock …}"): connection chatter, whatever socket it names, as "ClientConn switching
  // balancer" is
  [/\baddrConn\.createTransport failed to connect\b/, 'other'],
  // the EBS driver's ControllerModifyVolume failing ("Could not modify volume %q: %v", pkg/driver/controller_modify_volume.go):
  // a change of the volume's class, no step the stages name; not inside a resize, which EC2's ModifyVolume also serves
  // ("Could not resize volume …: … Could not modify volume …")
  [/^(?!.*\b(resiz|expan)\w*).*\bCould not modify volume\b/i, 'other'],
  // KubeVirt's CSI driver making the infra cluster's DataVolume for a tenant claim (kubevirt/csi-driver
  // pkg/service/controller.go CreateVolume, "creating new DataVolume %s/%s"): the provisioning; Longhorn's share-manager
  // starting its NFS server and health check for an RWX volume (longhorn-share-manager): the share's start-up, no step
  [/\bcreat(e|ing) (a )?new DataVolume\b/, 'provision'],
  [/\bstarting nfs server, volume is ready for export\b|\bRunning NFS server!|\bstarting health check for volume\b/i, 'other'],
  // Upstream's own lines that name no CSI call and no operation, read from the source at v1.20.5 and at 1.36 (the
  // files and lines cited are v1.20.5's unless said):
  // the kubelet waiting for a pod's volumes before it starts the pod (volume_manager.go:373 WaitForAttachAndMount, "Waiting
  // for volumes to attach and mount for pod"): the mount, as the timeout it ends in ("Unable to attach or mount volumes")
  [/\bWaiting for volumes to attach and mount for pod\b/, 'mount'],
  // the kubelet's DSW populator resolving a pod's claim to its PV before the mount (createVolumeSpec,
  // desired_state_of_world_populator.go:528-570 at V(5): "Found PVC, ClaimName", "Found bound PV for PVC", "Extracted
  // volumeSpec"; the attach/detach controller's util.go prints the same at V(10) only)
  [/\bFound PVC, ClaimName\b|^"Found PVC" |\bFound bound PV for PVC\b|\bExtracted volumeSpec\b/, 'mount'],
  // a teardown cleaning the subpath bind mounts of a pod's volume (subpath_linux.go:226-299 doCleanSubPaths, "Cleaning up
  // subpath mounts for …", "Successfully cleaned subpath directory …"): "mounts" in them is no mount
  [/\bCleaning up subpath mounts for\b|\bSuccessfully cleaned subpath directory\b/, 'unmount'],
  // mount-utils probing a device's file system before it formats and mounts it (mount_linux.go:429-470 GetDiskFormat, called
  // by formatAndMount: "Attempting to determine if disk … is formatted using blkid", "Could not determine if disk … is
  // formatted", "Disk … detected partition table type"): the staging
  [/\bAttempting to determine if disk "?\S+"? is formatted\b|\bCould not determine if disk "?\S+"? is formatted\b|\bdetected partition table type\b/, 'mount'],
  [/\bSkip file system resize check\b/, 'resize'],
  // the kubelet's block-volume path handler (volumepathhandler/volume_path_handler.go:96 "MapDevice: linkName …", :230
  // "RemoveMapPath: mapPath …", volume_path_handler_linux.go:123 "Failed to remove loopback device"); and the device-open check
  // before an UnmountDevice or UnmapDevice (operation_generator.go:1734-1738 isDeviceOpened, "PathIsDevice failed",
  // "DeviceOpened failed"): the map's and the teardown's
  [/\bRemoveMapPath: mapPath\b|\bUnmapDevice: (mapPath|linkName)\b|\bFailed to remove loopback device\b|\b(PathIsDevice|DeviceOpened) failed for volume\b/, 'unmount'],
  [/\bMapDevice: (devicePath|mapPath|linkName)\b/, 'mount'],
  // the kubelet writing a driver's attach limit into CSINode (nodeinfomanager.go:568 installDriverToCSINode, "Exceeded max
  // supported attach limit value, truncating it to …"): the registration, whatever "attach" says
  [/\bExceeded max supported attach limit value\b/, 'register'],
  // the PV controller binding a claim and its volume (pv_controller.go:895-1065 bindVolumeToClaim, bind, unbindVolume:
  // "updating PersistentVolume[…]: binding to …", "… bound to …", "… rolling back binding from …", "… rolled back", "volume …
  // status after binding"; structured at 1.36, "Updating PersistentVolume: rolled back"): the provisioning stage's binding
  [/\bupdating PersistentVolume(Claim)?(\[[^\]]*\])?: (binding to|already bound to|bound to|rolling back binding|rollback failed|rolled back)\b|\b[Vv]olume (\S+ )?status after binding\b/i, 'provision'],
  // the PV controller refusing a class's mount options for a plugin that has none (pv_controller.go:1533), and leaving a
  // volume to its external deleter (pv_controller.go:1338 at 1.36, "External deleter for volume requested, ignoring")
  [/\bMount options are not supported by the provisioner\b/, 'provision'],
  [/\bExternal deleter for volume requested\b|\bVolume deletion ignored\b/, 'delete'],
  // (external-provisioner deleting a volume whose class is gone, v2.2.2 pkg/controller/controller.go:1173 "failed to get
  // storageclass: %s, proceeding to delete without secrets")
  [/\bproceeding to delete without secrets\b/, 'delete'],
  // the scheduler's volume binder's other lines (scheduler_binder.go:243 "FindPodVolumes for pod", :496-514 bindAPIUpdate,
  // :709-712 "PVC … is (not) fully bound to PV", :795-801 "… matches for Pod", "All bound volumes for Pod … match with Node",
  // :828-841 "No matching volumes for Pod", "Found matching volumes for pod"): placing the pod's claims, as above
  [/\bFindPodVolumes for pod\b|\bbindAPIUpdate\b|\bis (not )?fully bound to PV\b|\bAll bound volumes for Pod\b|\b(No|Found) matching volumes for [Pp]od\b/, 'provision'],
  // sig-storage-lib-external-provisioner saving the PV it provisioned, or deleting the volume when it cannot
  // (controller/volume_store.go StoreVolume: "Trying to save persistentvolume", "persistentvolume … saved", "… already exists,
  // reusing", "Failed to save persistentvolume", "Error creating provisioned PV object for claim"), and rescheduling a claim
  // whose node cannot take it (controller.go provisionVolumeErrorHandling "Volume rescheduled because"): the provisioning
  [/\b(Trying to save|Failed to save) persistentvolume\b|\bpersistentvolume "?[\w.-]*"? ?(saved|already exists, reusing)\b|\bError creating provisioned PV object for claim\b|\bVolume reschedul(ed because|ing failed)\b/i, 'provision'],
  // external-provisioner reading the snapshot a claim is restored from (pkg/controller/controller.go getSnapshotSource, v2.2.2
  // and v6: "requested volume size … is greater than the size … for the source snapshot", "… is being deleted but has
  // volumesnapshot-as-source-protection finalizer, allowing provisioning to continue"): the restore's provisioning
  // (and the claim a clone is made from, getPVCSource: "the source volume … for PVC … is not bound", "error getting volume
  // source from …")
  [/\bfor the source snapshot\b|\ballowing provisioning to continue\b|\bthe source volume \S+ for PVC\b|\berror getting volume source from\b/, 'provision'],
  // a driver starting a volume's restore from a snapshot inside its CreateVolume (JuiceFS pkg/driver/controller.go:163-166
  // "Successfully initiated snapshot restore", "Failed to initiate snapshot restore"): the new volume's provisioning
  [/\b(initiat(e|ed|ing)|start(ed|ing)?) (the )?snapshot restore\b/i, 'provision'],
  // the external-resizer comparing the sizes a node expansion left (controller.go:453 isNodeExpandComplete at v2.2.1, "Capacity
  // of pv and pvc" pvCapacity=… pvcCapacity=…): the resize
  [/\bCapacity of pv and pvc\b/, 'resize'],
  // ceph-csi's request id of a call that creates (CEPH_CREATE_VOLUME_REQ, CEPH_CREATE_SNAPSHOT_REQ)
  [CEPH_CREATE_VOLUME_REQ, 'provision'],
  // a program saying it has started, or the configuration it loaded ("Provisioner started", "Applied config: {…}")
  [/\b(provisioner|resizer|attacher|snapshotter|controller|driver|plugin|server)s? (has |have )?started\s*$|\b(applied|loaded|loading|using|parsed|read) (the )?config(uration)?( file)?\b[^.]{0,20}:/i, 'other'],
  // a storage backend's API operation named in snake case, as many REST and RPC APIs name them ("op=delete_volume",
  // "delete_volume_reply", "create_volume", "extend_volume"): the step it is for
  [/\b(delete|remove|destroy)_(volume|disk|lun|share|file_?system|image)s?(_reply|_request|_response)?\b/i, 'delete'],
  [/\bcreate_(volume|disk|lun|share|file_?system|image)s?(_reply|_request|_response)?\b/i, 'provision'],
  [/\b(expand|extend|resize)_(volume|disk|lun|share|file_?system|image)s?(_reply|_request|_response)?\b/i, 'resize'],
  // a new backend resource a CreateVolume waits for, still being created (AWS APIs' lifecycle "CREATING": FSx for Lustre's
  // "WaitForFileSystemAvailable" status="CREATING"); a snapshot in that state is the snapshot's
  [/^(?!.*snapshot).*\b(status|state|lifecycle)\s*[=:]\s*"?creating\b/i, 'provision'],
  // an RBD image removed, or moved to the trash, is the volume's deletion (ceph-csi's DeleteVolume, Rook's old
  // provisioner "Running command: rbd rm replicapool/pvc-…"); "rbd snap rm" is a snapshot's
  [/\brbd:? (rm|remove|trash (mv|move|rm|remove))\b/i, 'delete'],
  // the kubelet's reconciler forgetting a volume after UnmountDevice ("Volume detached for volume …", reconciler.go):
  // the end of the node's teardown, not the detach (that is the attach/detach controller's "DetachVolume.Detach succeeded")
  [/\bVolume detached for volume\b/, 'unmount'],
  [CEPH_CREATE_SNAPSHOT_REQ, 'snapshot'],
  // a provisioning that failed says so first, whatever its error goes on to name ("failed to provision volume with StorageClass
  // …: error getting handle for DataSource Type VolumeSnapshot …" is a restore's provisioning)
  [/\bfailed to provision volume\b/i, 'provision'],
  // a file-share driver making or removing the volume's subdirectory in the share (csi-driver-nfs, csi-driver-smb
  // CreateVolume/DeleteVolume: "failed to make subdirectory: mkdir /tmp/pvc-…/pvc-…")
  [/\b(mak\w*|creat\w*) (the )?sub-?dir(ectory)?\b/i, 'provision'],
  [/\b(remov|delet)\w* (the )?sub-?dir(ectory)?\b/i, 'delete'],
  // (but a reconstruction that finds no pods directory to read, "Cannot get volumes from disk[, skip sync states for volume
  // reconstruction]", reconciler.go / reconstruct.go, decides nothing about any volume)
  [/\bCannot get volumes from disk\b/, 'other'],
  // the kubelet's reconstruction of its state from the pod directories after a restart, which leads to unmounting what no pod wants
  // (reconciler.go reconstructVolume / syncStates: "Could not construct volume information")
  [/\b(re)?construct(ing|ed)? volume\b|reconstruct(ed|ing)? (the )?volume|volume reconstruction/i, 'unmount'],
  // the file system grown on the node: resize2fs, xfs_growfs
  // (but mount-utils' NeedResize, which a node plugin's NodeStageVolume calls after it mounts a volume that may be larger
  // than its file system, a restore from a smaller snapshot: "ResizeFs.needResize - checking mounted volume …" and its
  // size lines, resizefs_linux.go, is the staging's check)
  // (and its repair of an XFS volume before it mounts it, "Filesystem corruption was detected for /dev/rbd1, running xfs_repair to
  // repair", mount_linux.go checkAndRepairXfsFilesystem)
  [/\bFilesystem corruption was detected for \S+, running xfs_repair\b/, 'mount'],
  [/\bneed ?resize - checking\b|\bfilesystem size=\d+, block size=\d+|\bdevice size=\d+, filesystem size=\d+/i, 'mount'],
  [/resize2fs|xfs_growfs/i, 'resize'],
  // (but the kernel reporting a disk or file system failing under use is no step of the volume's flow: a SCSI command that
  // failed and its sense data, "sd 3:0:0:1: [sdd] FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_SENSE", "Sense Key :
  // Medium Error", "CDB: Write(10) …", drivers/scsi/scsi_logging.c; a disk gone offline refusing I/O, "sd 20:0:0:1: rejecting
  // I/O to offline device"; the block layer's "blk_update_request: critical medium
  // error, dev sdd"; "Buffer I/O error on dev"; XFS shutting itself down after it found corruption, "Corruption detected.
  // Unmount and run xfs_repair", "xfs_do_force_shutdown(…) called", fs/xfs: a read-only or failing volume's symptom, as
  // the corpus's labellers read every such line; XFS refusing to mount, "Attempted to mount read-only compatible
  // filesystem read-write", stays the mount's by its words)
  [/\bFAILED Result: hostbyte=\w+|\bSense Key ?: (\w+ Error|Illegal Request|Not Ready|Aborted Command|Data Protect)\b|\] Unit Not Ready\b|\bAdd\. Sense: |\[\w+\] (tag#\d+ )?CDB: |\bscsi_io_completion\b|\bblk_update_request: |\bBuffer I\/O error on dev\b|\bI\/O error, dev \w+, sector\b|\bCorruption (detected|of in-memory data)\b|\bxfs_do_force_shutdown\b|\bI\/O Error Detected\. Shutting down filesystem\b|\bPlease umount the filesystem and rectify\b|\bInternal error xfs_\w+ at line\b|\bxfs_\w+: xfs_\w+ returned error\b|\brejecting I\/O to offline device\b/, 'other'],
  // (and the scheduler refusing a node that can take no more volumes, "node(s) exceed max volume count": the NodeVolumeLimits
  // filter counts the volumes attached there against the CSINode's allocatable count, the node's attach capacity)
  [/\bexceed(s|ed)? max volume count\b|\bNodeVolumeLimits\b/, 'attach'],
  // (and the kernel letting a disk go, "sd 5:0:0:1: [sdn] Synchronizing SCSI cache", drivers/scsi/sd.c sd_shutdown on the
  // disk's removal: the detach arriving on the node, as "Attached SCSI disk" is the attach)
  [/\bSynchronizing SCSI cache\b/, 'detach'],
  // the kernel finding the new disk is the attach arriving on the node (SCSI "sd 1:0:0:2: [sde] …"; the SCSI host an iSCSI
  // login creates, "scsi host19: iSCSI Initiator over TCP/IP", drivers/scsi/scsi_transport_iscsi.c; an NVMe-oF controller
  // connecting or failing to, "nvme nvme10: Connect command failed", "nvme nvme3: new ctrl: NQN …", drivers/nvme/host)
  [/\b(scsi|sd) \d+:\d+:\d+:\d+: |\bscsi host\d+: |\bnvme nvme\d+: /, 'attach'],
  // Longhorn's engine (its instance-manager's "[pvc-…-e-0]" process, go-iscsi-helper's iscsidev) starting its iSCSI
  // frontend on the node is Longhorn's attach (ControllerPublishVolume), which the node's staging only finds done
  // (and the engine process's first line, "Starting with replicas [\"tcp://…\"]", longhorn-engine app/cmd/controller.go)
  // (and its frontend failing to come up, "pvc-…-e-8971fbd1: … failed to start up frontend: …", longhorn-engine's controller;
  // and go-iscsi-helper's iscsidev StartInitator retrying its discovery there: "FAIL to discover due to …", then "Nodes
  // cleaned up for iqn.…" or "Fail(ed) to clean up nodes for …")
  [/\[pvc-[0-9a-f-]{36}-e-\d+\]|\biscsidev\.|\bStartInitator\b|\bStarting with replicas \[|\bfailed to start up frontend\b|\bFAIL to discover due to\b|\bNodes cleaned up for\b|\bFail(ed)? to clean ?up nodes for\b/, 'attach'],
  // an iSCSI session is logged out when the volume is unstaged, and discovered and logged in when it is staged
  // (iscsiadm's own words for it: "Logging out of session [sid: 1, target: …]", "Could not logout of [sid: …]", "Could not
  // logout of all requested sessions", and iscsid's "session in invalid state for logout", open-iscsi usr/iscsiadm.c, usr/mgmt_ipc.c)
  [/\biscsi\b.*\blog ?out\b|\blog ?out\b.*\biscsi\b|--logout\b|\blog(ging)? ?out of (\[sid|session|all requested sessions)\b|\bstate for logout\b/i, 'unmount'],
  // (and the node's connector disconnecting or detaching the device: csi-lib-iscsi's and os-brick's DisconnectVolume,
  // "detaching ISCSI device"; the controller's detach never names the node's device)
  [/\bDisconnectVolume\b|\bdetach\w* (the )?(iscsi|nvme|fc|scsi) (device|session|target)/i, 'unmount'],
  // (nor multipathd's path checker watching the paths of maps already set up: "mpathaq: sdak - tur checker reports path is
  // down", "remaining active paths: 3": the health of a device, no step of a volume's)
  [/\b\w+ checker reports path is (up|down|ghost|shaky)\b|\bremaining active paths: \d+/i, 'other'],
  // (nor the scheduler taking a pod from its queue, "About to try and schedule pod", scheduling_queue.go / schedule_one.go)
  [/\bAbout to try and schedule pod\b/, 'other'],
  // a workload's manifest the API server refuses ("Deployment.apps \"x\" is invalid: spec.template.spec.containers[3].volumeMounts
  // .mountPropagation: Forbidden: …"): the object never exists, no volume has a step
  [/\b(Deployment|DaemonSet|StatefulSet|ReplicaSet|Job|CronJob)(\.apps|\.batch)? "[^"]*" is invalid: spec\.(template|jobTemplate)\b/, 'other'],
  // a multipath device is flushed and removed when the volume is unstaged, and found (its dm-N, its paths under
  // /sys/block) when it is staged
  [/\b(flush|remov|delet|disconnect|clean)\w*\b[^.]*\b(multipath|mpath\w*|dm-\d+)\b|\bmultipath -f\b/i, 'unmount'],
  // (and a SCSI device looked up by its host:channel:target:lun, HCTL)
  [/\bhctl\b|\bmultipath(d|ing)?\b|[a-z]Multipath\b|\bWaiting for dm\b|mpath|\/dev\/dm-\d|\bdm-\d+\b|\/sys\/(block|class\/scsi)|\bsg_inq\b|\bdevice ?mapper\b/i, 'mount'],
  // (and iscsid logging in: a login rejected, the connection to a target made, the kernel's report of that connection
  // failing, a driver "logged into portal …"; the same connection "is shutdown" is the logout of the unstaging)
  [/\bConnection\d+:\d+ to \[target:[^\]]*\].*\bis shutdown\b/i, 'unmount'],
  // (and the iSCSI target's side of that login: an initiator connecting or discovering, its connections, one to the iSCSI port 3260)
  [/\b(from|to) initiator\b|\binitiator: |\biscsi connection\b|\bconnection \w+ (at|to):? \S+:3260\b/i, 'mount'],
  [/\blogin (rejected|failed|timed out)\b|\bConnection\d+:\d+ to \[target:|\biSCSI connection \d+:\d+ error\b|\blogged in(to)? (the )?(portal|target)\b/i, 'mount'],
  // (a block volume's loop device, which holds the device file open, is released when the volume is unmapped: "couldn't
  // find loopback device … Skip detaching device", volume_path_handler_linux.go)
  [/\bloop(back)? device\b.*\bdetach|\bdetach\w* (the )?loop(back)? device\b/i, 'unmount'],
  // (but the logout and the node record's removal are the unstaging's: "-m node -T iqn.… -u", "-o delete", Trident's
  // ISCSIDisableDelete, iscsiadm's answer to a logout of a session that is gone)
  [/\bISCSIDisableDelete\b|-m node\b.*(\s-u\b|--logout\b|\s-o delete\b)|\bNo matching sessions found\b/i, 'unmount'],
  // removing an RBD image is a deletion, whatever it says of snapshots ("librbd::image::RemoveRequest … image has snapshots -
  // not removing", "Removing image: 0% complete...failed.", "rbd: image has snapshots - these must be deleted … before the
  // image can be removed")
  [/\bRemoving image\b|\bimage has snapshots - (not removing|these must be deleted)/i, 'delete'],
  // a tool waiting for a claim to grow ("Waiting up to one minute for Minio PVC size to change from 10Gi to 20Gi")
  [/\bsize (to change )?from \d+(\.\d+)?\s?[KMGTPE]i?B? to \d+(\.\d+)?\s?[KMGTPE]i?B?\b/i, 'resize'],
  // (iscsiadm's own arguments, "-m node -T iqn.… --login", "-m discovery -t sendtargets", logged without its name)
  [/\biscsiadm\b|\bsendtargets\b|\biscsi (session|login|discovery|target)|(^|\s)-m (node|discovery)\b/i, 'mount'],
  // (and an NVMe-oF target connected on the node, nvme-cli's "nvme connect -t tcp …" and its "could not add new controller")
  [/\bnvme connect\b|\bcould not add new controller\b/i, 'mount'],
  // the kubelet runs mount through systemd-run on a systemd host, whose output it quotes ("Output: Running scope as unit
  // run-….scope", mount-utils mount_linux.go doMount with systemd-run --scope): a mount
  [/\bRunning scope as unit:? run-\S+\.scope\b/i, 'mount'],
  // the kernel's SMB client mounting a share: its session set-up and its verdict ("CIFS: Status code returned 0xc000006d
  // STATUS_LOGON_FAILURE", "CIFS: VFS: cifs_mount failed w/return code = -13", "Send error in SessSetup")
  [/\bcifs_mount\b|\bCIFS:? (VFS: )?(Attempting to mount|Status code returned|Error connecting to socket|.*\bSend error in SessSetup)|\bSessSetup\b/i, 'mount'],
  // mapping an RBD image on the node is ceph-csi's NodeStageVolume
  [/\brbd:? map\b|\brbd_attach\.go/i, 'mount'],
  // so is connecting a network block device (NBD: rbd-nbd, a driver's own) on the node; disconnecting it is the unstaging
  [/\b(un ?map|disconnect|detach)\w*\b.*(\bnbd\b|\/dev\/nbd\d)|(\bnbd\b|\/dev\/nbd\d).*\b(un ?mapped|disconnected|detached)\b/i, 'unmount'],
  [/\bnbd\b|\/dev\/nbd\d/i, 'mount'],
  // a pod's volume directory or a staging directory removed (rmdir) is what unpublishing and unstaging leave
  [/\brmdir\b.*(\/pods\/|globalmount|\/mount\b|\/csi\/)/i, 'unmount'],
  // a driver finding no target path: NodePublishVolume creates it, so it is the unpublish that finds it gone
  // (cinder's NodeUnpublishVolume "targetpath not found")
  [/\btarget ?path\b:?( "?[^\s"]+"?)? (is )?(not found|does not exist|doesn't exist|not exist)/i, 'unmount'],
  // the provisioner library's operation keys (goroutinemap): "delete-pv-<name>[<uid>]", "provision-<ns>/<claim>[<uid>]"
  [/\bdelete-pvc?-/i, 'delete'],
  // the provisioner library's per-claim lines (v1-v6): provision "ns/claim" class "sc": … (whatever the class is named)
  [/\bprovision "[^"]+" class "[^"]*":/, 'provision'],
  // the provisioner library's per-volume lines (v1-v6): delete "pvc-…": …
  [/\bdelete "pvc?-[^"]*":/, 'delete'],
  // kubelet_volumes.go cleanupOrphanedPodDirs: a deleted pod's volume directories still on disk
  // (and its error: "Failed cleaning pods: [remove /var/lib/kubelet/pods/…/volumes/…: device or resource busy]")
  [/orphaned (pod|volume) ("[^"]*" )?found|volume (sub)?paths are still present on disk|\bFailed cleaning pods\b|\bFailed to remove orphaned pod\b|\bFailed cleaning up orphaned pod directories\b|\bCould not read directory \S*\/pods\/[^/\s]+\/volumes\b/i, 'unmount'],
  [/successfully created pv|provisionclaimoperation|provisioning succeeded/i, 'provision'],
  // a backend saying it made a volume ("Volume created: pvc-…", "created volume vol-…"), not a VolumeAttachment
  // (and a backend's own object for it: "created new LV", a volume's info record created, a "… Create Request" for a volume,
  // "Volume requested" with its size)
  // (an in-tree plugin or a cloud naming its kind of disk between: "Successfully created EBS Disk volume", "Error creating
  // cinder volume", "successfully created rbd image", v1.20.5 pkg/volume/awsebs/aws_util.go:110-113, cinder_util.go:223,
  // rbd.go:701; the kind is up to three words, none a pod's, a snapshot's, an attachment's or a mount's)
  [/\b(creat(e|ed|ing)) (the |an? )?((?![\w-]*(pod|container|snapshot|attachment|mount|backup|replica)s? |(for|of|on|in|at|to|from|with|the|a) )[\w-]+ ){1,3}(volume|disk|image|share|lun)s?\b(?! ?(attachment|snapshot|group|mount))/i, 'provision'],
  [/\bvolume created\b|\bcreated (a |the |new )?volume\b(?! ?attachment)|\bcreated? (a )?new (LV|logical ?volume|volume|disk|share|dataset|subvolume)\b(?! ?(group|snapshot|attachment))|\b\w*vol(ume)?\w* create request\b|(?<!\b(stage|unstage|publish|unpublish|delete|expand|attach|detach|mount|snapshot) )\bvolume requested\b|\bcreating \w*volume ?info\b/i, 'provision'],
  // (and the tools that grow a volume or its file system: xfs_growfs, resize2fs, lvextend, LVM's extents, a ZFS volume's new size)
  [/resizefs|resize ?fs|expanding (mounted )?volume|\bset (volsize|refquota|quota)=|node_expansion_required|update capacity|\bgrowfs\b|\bresize2fs\b|\blv(extend|resize)\b|\blogical extents\b|\bresiz(e|ing) (the )?volume\b/i, 'resize'],
  // the provisioner library giving up on a claim or a volume after --failed-provision/delete-threshold failures
  [/\bfailedDeleteThreshold\b/i, 'delete'],
  [/\bfailedProvisionThreshold\b/i, 'provision'],
  // the attach/detach controller's reconciler takes a volume out of node.status.volumesAttached just before it detaches it;
  // what it records of the node's volumesInUse (SetVolumeMountedByNode) says whether detaching is safe
  [/\bRemoveVolumeFromReportAsAttached\b|\bSetVolumeMountedByNode\b/, 'detach'],
  // its bookkeeping of nodes (a Node added or deleted) is no volume's step
  [/\b(add|remov|delet)\w* node \S+ (from|to) (the )?(desired|actual)[- ]state[- ]of[- ]world\b/i, 'other'],
  // mount-utils' CleanupMountPoint removes the directory it has just unmounted ("Warning: deleting path …")
  [/\bdeleting path\b/i, 'unmount'],
  // external-provisioner reading the selected node's CSINode for its topology ("error getting CSINode for selected node") provisions
  [/\bCSINode for selected node\b/i, 'provision'],
  // a node registering itself with the API server (the kubelet's kubelet_node_status.go "Attempting to register node …",
  // "Successfully registered node …", "Node … was previously registered"), or a driver's controller forgetting a node VM
  // ("Successfully unregistered node with nodeName …"): no plugin registration; nor the kubelet's start-up annotation
  // for controller-managed attach/detach ("Setting node annotation to enable volume controller attach/detach")
  // (nor a driver's own process manager forgetting one of its processes: "wait for process … before unregistering process")
  [/\b(un)?regist(er|ered|ering) (the )?process\b/i, 'other'],
  // (nor the kernel's FS-Cache loading for a network file system's first mount: "FS-Cache: Netfs 'nfs' registered for caching")
  [/\bFS-Cache: (Loaded|Netfs\b)/, 'mount'],
  // (nor a driver registering its own gRPC services with its server at start-up: "StartService - Registering node service")
  [/\bregist(er|ered|ering) (the )?(csi )?(node|controller|identity) (grpc )?service\b/i, 'other'],
  // (nor a storage engine's replicas registering with their volume's controller, Jiva's "Register Replica, Address: …",
  // "No of yet to be registered replicas are less than 3": the data plane, no plugin's registration)
  [/\bregist(er|ered|ering) replicas?\b|\breplicas? (is |are )?registered\b/i, 'other'],
  [/\b(un)?regist(er|ered|ering) (the )?node\b(?! ?(driver|plugin|service|server))|\bwas previously registered\b|\bnode annotation to enable volume controller attach\/detach\b/i, 'other'],
  // a record of a logger named after the registrar (a driver's own registrar: "logger":"csi-registrar")
  [/"logger":"[^"]*registrar/, 'register'],
  // (a program refused a list or a watch by RBAC, "csinodes.storage.k8s.io is forbidden: … cannot list resource \"csinodes\"":
  // its informers or its start-up, whatever the objects; an operation's own refusals are gets, creates and updates, and a
  // line that says which operation the refusal kept from running is that operation's: "can't provision for claim …")
  [/^(?!.*\b(can'?t|cannot|failed to|unable to) (provision|attach|detach|mount|unmount|delete|expand|resize|snapshot)\b).*\bcannot (list|watch) resource\b/i, 'other'],
  // (but external-attacher refusing an attach to a node whose CSINode lacks the driver, "CSINode %s does not contain driver %s",
  // csi_handler.go: the attach's error, saved in the VolumeAttachment)
  [/\bCSINode \S+ does not contain driver\b/, 'attach'],
  [/regist(er|ration)|plugins_registry|nodegetinfo|csinode|plugin ?(watcher|manager)|not found in the list of registered/i, 'register'],
  // the PV controller finding no plugin to delete a released volume ("Error getting deleter volume plugin for volume …")
  [/\bdeleter\b/i, 'delete'],
  // a snapshot controller's cache of VolumeSnapshotContents ("storeObjectUpdate updating content …", util.go)
  [/\bstoreObjectUpdate\b.*\b(content|snapshot)\b/i, 'snapshot'],
  // (and an LVM logical volume removed: TopoLVM's node daemon "failed to remove LV", lvremove)
  [/\b(remov|delet)\w* (the )?(lv|logical ?volume)s?\b|\blvremove\b/i, 'delete'],
  // a volume deleted under a shortened name ("delete vol error", a "…-delvol" job): before the mount words its error text may hold
  [/\bdelet(e|ing|ed) vol\b|\bdel-?vol\b|\bmust be manually deleted\b/i, 'delete'],
  // (and a volume destroyed by the backend's word, "destroy: volume …", or its own object's deletion seen: "Got delete event for ZV …",
  // "zfsvolume '…' has been deleted")
  // (or its name in quotes, then the verb: `volume "pvc-…" deleted`, a provisioner's word once DeleteVolume returned; not kubectl's
  // `persistentvolume "pvc-…" deleted`, the user's command echoing)
  [/\bdestroy(ing|ed)?:? (the )?(volume|dataset|zvol|pv)\b|\b(got|received) delete event for (the )?(ZV|\w*volume)\b|\b\w*volume\b[^.]*\bhas been deleted\b|\b(volume|pv|disk|image) "[^"]+" (was |is )?deleted\b/i, 'delete'],
  // (kubectl's answer about a StorageClass, as a test harness echoes it, "stdout: \"storageclass.storage.k8s.io \\\"csi-rbd-sc\\\"
  // deleted\n\"": a class set up or taken down, no volume's step)
  [/\bstorageclass(\.storage\.k8s\.io)?(\/[\w.-]+| \\*"[^"\\]+\\*") (deleted|created|configured|unchanged)\b/i, 'other'],
  // (the PV controller handling a claim's deletion, "deletion of claim \"ns/name\" was already processed", pv_controller_base.go
  // deleteClaim: the release and reclaim of its volume that follow)
  [/\bdeletion of claim\b/i, 'delete'],
  // (but a driver removing its backend's image is the deletion, however the backend refused: ceph-csi's "failed to delete rbd
  // image: pool/csi-vol-…, rbd: ret=-39, Directory not empty", an image that still has snapshots or clones, rbd_util.go deleteImage)
  // (and "unexpected error related to Ceph MGR-based RBD image deletion …", the trash task's, whatever snapshot it names)
  [/\b(fail(ed)? to |unable to |error )?(delet|remov)(e|es|ing|ed) (the )?rbd image\b|\brbd image deletion\b/i, 'delete'],
  // (external-resizer refusing to start because the driver has no expansion capability, "CSI driver neither supports
  // controller resize nor node resize", cmd/csi-resizer/main.go: a sidecar's start-up, no volume grows; Longhorn's driver
  // deployer checking the nodes' mount propagation before it installs the driver, "CSI cannot be deployed because
  // MountPropagation is not set"; JuiceFS upgrading its mount pods in place, "send SIGHUP to mount pod …", "Upgrade binary
  // in jfs-mount", "canary job of mount pod … completed": the driver's own upgrade, no volume's step)
  [/\bneither supports controller resize nor node resize\b|\bMountPropagation is not set\b|\bchecking MountPropagation\b|\bnot support mount propagation\b|\b(smooth upgrade|upgrad\w*|canary job|SIGHUP)\b[^\n]*\bmount pod\b|\bUpgrade binary in\b/i, 'other'],
  // (a driver's own unmount function named in its line, "SMBUnmount: local path: c:\var\lib\kubelet\pods\…", JuiceFS's
  // "JfsUnmount": the teardown, though "mount" ends the word)
  [/(?<=[A-Za-z])Unmount\b/, 'unmount'],
  // removing a pod's volume directory that still holds files ("failed to clean mount dir …", "…/mount: directory not empty") is the unmount's cleanup
  // (and a mount directory removed: "Removing mount path directory: …", "deleting mount point …")
  // (and a bind mount of the volume undone at a path: ceph-csi's NodeUnpublishVolume "cephfs: successfully unbinded volume … from /var/lib/kubelet/pods/…")
  // the volume manager's wait for a pod's volumes ("timeout expired waiting for volumes to attach or mount for pod …. list of
  // unmounted volumes=[…]", "unmounted volumes=[…], unattached volumes=[…]"): volumes not mounted yet, a mount's wait
  [/\bwaiting for volumes to attach or mount\b|\blist of unmounted\b|\bunmounted volumes ?=/i, 'mount'],
  // (and the quota of a pod's emptyDir-backed volume, a Secret's or a ConfigMap's too, released as it is torn down: "Warning: Failed to
  // clear quota on /var/lib/kubelet/pods/…/volumes/kubernetes.io~secret/…", pkg/volume/emptydir/empty_dir.go TearDownAt)
  [/\bclear ?quota\b/i, 'unmount'],
  [/\bclean(ing|ed)? (up )?(the )?mount ?(dir|point|path)\b|\bdirectory not empty\b|\b(remov|delet)\w* (the )?mount ?(path|point|dir)|\bunbind(ed)? (the )?volume \S+ from \//i, 'unmount'],
  // a flex driver's or a driver's report that the volume is "attached and mounted" is the mount done, not the attach
  [/\battached and mounted\b/i, 'mount'],
  // the volume's files given the pod's fsGroup (SetVolumeOwnership, a driver "successfully set fsgroup"), and a target or
  // staging path made for the volume, are NodePublishVolume's and MountVolume.SetUp's
  [/\b(set|setting|applied|applying|chang\w*) (the )?fs ?group\b|\bSetVolumeOwnership\b|\bvolume ownership\b|\b(creat\w*|mak\w*) (the )?(target|staging) ?path\b/i, 'mount'],
  // (and the kubelet's own plugins setting a volume up for a pod: "Setting up volume kube-api-access-g6knl for pod … at …",
  // secret.go, configmap.go, projected.go, downwardapi.go SetUpAt)
  // (and the configMap or secret it read for them: "Received configMap ns/name containing (1) pieces of data, 230 total bytes",
  // pkg/volume/configmap/configmap.go, pkg/volume/secret/secret.go SetUpAt)
  // (and the quota it gives an emptyDir's directory there, "emptydir trying to assign quota …", "Set quota on <dir> failed …",
  // pkg/volume/emptydir/empty_dir.go setupDir)
  [/\bsetting up (the )?volume \S+ for pod\b|\bReceived (configMap|secret) \S+ containing \(\d+\) pieces of data\b|\bemptydir trying to assign quota\b|\bSet quota on \S*\/volumes\/kubernetes\.io~\S+ failed\b/i, 'mount'],
  [/unmountdevice|unmountvolume|unmapvolume|unmap|teardown|tear down|unstag|unpublish|\bunmount(ing|ed|er)?\b|umount|removing volume\b.*\bfrom (the )?desired state\b/i, 'unmount'],
  // staging a volume is NodeStageVolume, whatever its error says it failed to attach ("Failed to stage volume …: attach failed")
  [/\bstag(e|ing) (the )?volume\b/i, 'mount'],
  // (not the attachdetach-controller's name, which every attach event carries)
  [/(?<!attach)detach|controller[ _]?unpublish/i, 'detach'],
  [/multi-attach|attach|volumeattachment|controller[ _]?publish|volumesattached|volumesinuse|verifycontrollerattached/i, 'attach'],
  // a node plugin waiting for the volume's device to appear, or reading a device's serial or WWN to find which one it is:
  // what staging does before it formats and mounts (a teardown finds its device by the staging path)
  [/\bwait\w* for (the )?(device|disk)( node| path| file)?\b[^.;]{0,60}\bappear|\bGet\w*Device\w*Serial\w*\b|\bdevice ?(serial|wwn|wwid)\b|\bmouting\b/i, 'mount'],
  // a volume or path found "not mounted": what a teardown finds (an unmount of what is already gone, NotFound "Volume
  // not mounted"); a mount does not report it, it mounts. (Not "not a mount point": a mount checks that too, IsLikelyNotMountPoint;
  // only mount-utils' CleanupMountPoint goes on "…is not a mountpoint, deleting")
  [/\bnot mounted\b|\bnot a mount ?point, deleting\b/i, 'unmount'],
  [/\bcouldn't get (configMap|secret)\b|mountdevice|mountvolume|mapvolume|\bmount(?!point=)|node[ _]?stage|node[ _]?publish|\bstag(e|ing)\b|setup failed|set ?up|global ?mount|fsck|mkfs|mke2fs|\bformat(ting)? |'format'|udevadm|find (a )?device path/i, 'mount'],
  [/resiz|expan/i, 'resize'],
  // a volume made from a snapshot (external-provisioner's "VolumeContentSource_Snapshot", "Requested volume size is … and
  // snapshot size is …", a restore) is provisioned: CreateVolume with a content source
  // (and a volume cloned from another, a backend restoring a snapshot into a new volume: "could not clone volume …", "Failed to restore snapshot …")
  // (and a populator's or a DataVolume controller's report of its claim's phase, CDI's "PVC alpine-boot-clone3 Pending"/"… Bound": the binding)
  [/\bPVC [a-z0-9][\w.-]* (Pending|Bound)\s*$/, 'provision'],
  [/\bclon(e|ing) (the )?(volume|pvc)\b|\bcloning from \S+ into\b|\b(CSI )?volume clone\b|\bclone (scheduled|in progress|pending)\b|\brestor(e|ing) (the )?snapshot\b|\bVolumeContentSource|\bcontent ?source\b|\brestor\w* (\S+ ){0,3}from (a |the )?(volume ?)?snapshot|\brequested volume size\b[^.]*\bsnapshot size\b/i, 'provision'],
  [/snapshot|snapcontent/i, 'snapshot'],
  // (a volume under the backend's own name: a file share, a CephFS subvolume, an RBD image, a cloud disk, a LUN, a ZFS dataset)
  [/deletevolume|delet(e|ing|ed) (the |an? )?((?![\w-]*(pod|container|snapshot|attachment|mount)s? |(partly |partially )?provisioned |(for|of|on|in|at|to|from|with|the|a) )[\w-]+ ){0,3}(volume|pv|share|subvolume|image|disk|lun|dataset|fileset)\b|\bdeletion of (the )?(volume|pv|share|subvolume|image|disk|lun|dataset|fileset|zvol)\b|\bdeletion skipped\b|reclaim|\bneeds deletion\b/i, 'delete'],
  // (the scheduler's volume binding finding no PV for a claim: its binding, the provision stage's)
  // a pod's volume directory made, or given to a FUSE program as its mount point ("mkdir -p /var/lib/kubelet/pods/<uid>/volumes/
  // azure~blobfuse/…", "blobfuse /var/lib/kubelet/pods/…"): what a mount sets up (the path alone is as often a teardown's)
  [/(^|[\s:])(mkdir( -p)?|\w*fuse\w*|s3fs|goofys|rclone mount) \/\S*\/pods\/[\w-]+\/volumes\/[\w.-]+~[\w.-]+\//, 'mount'],
  // (a cloud's permission to create a disk, "Required 'compute.disks.create' permission", "ec2:CreateVolume"; a StorageClass
  // parameter only the provisioner reads, "\"fstype\" is deprecated, please use \"csi.storage.k8s.io/fstype\"")
  // (LVM's command that makes a logical volume, as a node-local driver runs it in CreateVolume ("lvcreate -s" makes a
  // snapshot); LINSTOR's volume definition of a new resource)
  [/\blvcreate\b[^\n]*(\s|",")-s\b|\blvcreate\b[^\n]*--snapshot\b/, 'snapshot'],
  [/\blvcreate\b|\b(new|created?) volume definition\b|\bvolume definition (with number \S+ )?(of resource definition \S+ )?created\b/i, 'provision'],
  [/\bcompute\.disks\.(create|insert)\b|\bec2:CreateVolume\b|\bcsi\.storage\.k8s\.io\/(fstype|provisioner-secret-(name|namespace))\b/i, 'provision'],
  // kube-scheduler's VolumeBinding plugin binds a pod's claims to volumes, or waits for their provisioning, before it binds
  // the pod ("running PreBind plugin \"VolumeBinding\": binding volumes: selectedNode annotation reset for PVC …",
  // pkg/scheduler/framework/plugins/volumebinding): the provisioning's
  [/\b(PreBind|PreFilter|Filter|Reserve) plugin "VolumeBinding"|"VolumeBinding" (filter|prebind|reserve) plugin\b|\bbinding volumes: /i, 'provision'],
  [/provision(?!er)|(?<!--id |--user |\bid=|\buser=)csi-[\w-]*provisioner\b|\bexternal provisioner\b|\ba volume to be created\b|createvolume|creat(e|ing) volume|\bvolume creation\b|persistent ?volumes? to bind|\bunbound immediate\b|\bcreate ?disk\b|waitforfirstconsumer|selected-node|storage ?class|(\b|volume)claim/i, 'provision'],
];

/**
 * The kubelet's and the attach/detach controller's operation names ("MountVolume.MountDevice failed
 * for volume …", pkg/volume/util/operationexecutor/operation_generator.go) say what failed, whatever the
 * driver's error text after them mentions ("… attached, but its device has not appeared"): they decide
 * before anything else. MountVolume.NodeExpandVolume is the expansion a mount triggers.
 */
const OPERATION_STAGE: Array<[RegExp, Stage]> = [
  // "MountVolume.MountDevice failed while expanding volume": the expansion MountDevice runs after staging (operation_generator.go)
  [/\b(MountVolume|MapVolume)\.NodeExpandVolume\b|\bMountVolume\.resizeFileSystem\b|\bNodeExpandVolume\.|\bExpandVolume\.|\bfailed while expanding volume\b|\bExpander\.NodeExpand\b/, 'resize'],
  // the kubelet's reconciler names the operation it could not start ("operationExecutor.MountVolume failed
  // (controllerAttachDetachEnabled true) for volume …", reconciler.go): the flag in it is no attach
  [/\boperationExecutor\.(UnmountVolume|UnmountDevice|UnmapVolume|UnmapDevice)\b/, 'unmount'],
  [/\boperationExecutor\.(VerifyControllerAttachedVolume|AttachVolume)\b/, 'attach'],
  [/\boperationExecutor\.DetachVolume\b/, 'detach'],
  // the attach/detach controller's reconciler names its operation through its attacherDetacher ("Starting
  // attacherDetacher.AttachVolume", "attacherDetacher.AttachVolume started / failed to start", v1.20.5
  // pkg/controller/volume/attachdetach/reconciler/reconciler.go:291-300, :361-369 at 1.36): "Detacher" in it is no detach
  [/\battacherDetacher\.AttachVolume\b/, 'attach'],
  [/\boperationExecutor\.(MountVolume|MapVolume)\b/, 'mount'],
  // the kubelet's CSI attacher names its own steps (csi_attacher.go "attacher.MountDevice failed …")
  [/\battacher\.(MountDevice|WaitForAttach)\b/, 'mount'],
  // (and its mounter's: csi_mounter.go "mounter.SetUpAt failed to get CSI client: driver name … not found in the list
  // of registered CSI drivers" is the pod's mount failing, not a registration)
  [/\bmounter\.SetUpAt\b|\bblockMapper\.(SetUpDevice|MapPodDevice)\b/, 'mount'],
  [/\bunmounter\.TearDownAt\b|\bblockMapper\.(TearDownDevice|UnmapPodDevice)\b/i, 'unmount'],
  [/\battacher\.UnmountDevice\b/, 'unmount'],
  [/\b(UnmountVolume|UnmapVolume)\.\w+|\b(UnmountDevice|UnmapDevice)(\.\w+)? failed/, 'unmount'],
  // the kubelet removing a pod's subPath bind mounts before its TearDown (operation_generator.go GenerateUnmountVolumeFunc:
  // GenerateError("error cleaning subPath mounts", err))
  [/\berror cleaning subPath mounts?\b/i, 'unmount'],
  // and preparing them as it starts a container, from the volume the mount made (kubelet_pods.go makeMounts: "failed to
  // create subPath directory for volumeMount %q of container %q", "failed to prepare subPath for volumeMount %q of container
  // %q", the CreateContainerConfigError they end in): the mount's last step, whose failure keeps the pod from starting
  [/\b[Ff]ailed to (create subPath directory|prepare subPath) for volumeMount\b/, 'mount'],
  // a node plugin undoing what a failed publish or stage left ("unmounting target path as node publish volume failed",
  // secrets-store-csi-driver nodeserver.go): the clean-up is the failed call's
  [/\bnode ?(publish|stage) ?volume (has )?failed\b/i, 'mount'],
  // HashiCorp Nomad, whose volumes an allocation claims (the claim precedes the controller publish) and whose volume watcher
  // releases (node and controller unpublish): its nomad.fsm's "CSIVolumeClaim failed", "volume max claims reached" (a writer
  // holds it, as a Multi-Attach), its nomad.volumes_watcher's "error releasing volume claims"
  [/\bCSIVolumeClaim failed\b|\bvolume max claims reached\b/, 'attach'],
  [/\berror releasing volume claims?\b/, 'detach'],
  // GenerateUnmountDeviceFunc names its GetDeviceMountPath failure without an operation before it; the mount's and the
  // expansion's are "MountVolume.GetDeviceMountPath failed", "NodeExpandVolume.GetDeviceMountPath failed"
  // (operation_generator.go:854 at v1.20.5, :841 at v1.30)
  [/(?<![.\w])GetDeviceMountPath failed\b/, 'unmount'],
  // (a line cut before its operation's name: "MountDevice failed to create newCsiDriverClient: …")
  [/\bMountDevice failed\b/, 'mount'],
  [/\bDetachVolume\.\w+/, 'detach'],
  // (and the attach/detach controller's actual state of world flagging a node whose node.status.volumesAttached must be
  // written, actual_state_of_world.go's statusUpdateNeeded)
  [/\bstatusUpdateNeeded\b/, 'attach'],
  // the attach/detach controller before 1.9 said it in words (operation_generator.go "Failed to attach volume %q on node %q
  // with: %v", recorded under the reason FailedMount)
  [/\bFailed to attach volume "[^"]*" on node\b/, 'attach'],
  [/\bFailed to detach volume "[^"]*" from node\b/, 'detach'],
  [/\b(AttachVolume\.\w+|VerifyControllerAttachedVolume) failed/, 'attach'],
  [/\b(MountVolume|MapVolume)\.\w+/, 'mount'],
];

/** The stage of the kubelet's or the attach/detach controller's operation a text names, if it names one. */
export function stageOfOperation(text: string): Stage | null {
  for (const [re, st] of OPERATION_STAGE) if (re.test(text)) return st;
  return null;
}

export function stageOfText(raw: string): Stage | null {
  // an HTTP request line a driver dumps ("GET /univmax/restapi/100/sloprovisioning/… HTTP/1.1") names the
  // storage API's resource, not the operation the driver is doing ("sloprovisioning" while it deletes); a gRPC
  // proxy's request line names the CSI call ("POST /csi.v1.Controller/CreateVolume HTTP/2.0")
  // (and the service account an RBAC refusal names is who asked, not what for: "User \"system:serviceaccount:ceph-csi-rbd:
  // ceph-csi-rbd-provisioner\" cannot get resource \"nodes\"" at a driver's start-up)
  const text = (raw.includes(' HTTP/') ? raw.replace(/\b(GET|POST|PUT|PATCH|DELETE|HEAD) \/(?!csi\.v\d)\S* HTTP\/[\d.]+/g, 'HTTP request') : raw)
    .replace(/\bUser \\*"system:serviceaccount:[^"\\]*\\*"/g, 'User "a service account"');
  const op = stageOfOperation(text);
  if (op) return op;
  // a CSI request named by its message type ("CreateVolumeRequest name:…", csi.proto's types)
  const typed = /\b(\w+)Request\b/.exec(text);
  if (typed) { const s = stageOfMethod(typed[1]!); if (s) return s; }
  // the kubelet polling a mounted volume's usage (NodeGetVolumeStats) is no step of its life
  if (/\bNodeGetVolumeStats\b/.test(text)) return 'other';
  // a CSI method named anywhere in the text decides next (ControllerUnpublishVolume: detach)
  for (const m of text.matchAll(/\b(\w*Volume|\w*Snapshot|NodeGetInfo|GetInfo|NotifyRegistrationStatus)\b/g)) {
    const s = stageOfMethod(m[1]!);
    if (s) return s;
  }
  // the Identity service and the capability calls (csi.proto), named with no volume call beside them: the handshake
  // (and ValidateVolumeCapabilities: whether a volume supports some access, asked by csi-sanity or another CO, no step of its life;
  // and GetCapacity, external-provisioner's storage-capacity tracking asking a topology segment's free space, no volume's step)
  if (/\b(GetPluginInfo|GetPluginCapabilities|ControllerGetCapabilities|NodeGetCapabilities|ValidateVolumeCapabilities|GetCapacity)\b|\/csi\.v\d\.Identity\/Probe\b/.test(text)) return 'other';
  // what a message says comes before the objects it prints ("Failed to create volume {Delete pvc-… &PersistentVolumeClaim{…}}":
  // the reclaim policy in the dump is no delete)
  const dump = text.search(/ \{|&\w+\{/);
  if (dump > 0) for (const [re, st] of KEYWORD_STAGE) if (re.test(text.slice(0, dump))) return st;
  for (const [re, st] of KEYWORD_STAGE) if (re.test(text)) return st;
  return null;
}

/** The gRPC interceptors' lines ("GRPC call/request/response/error"): generic by nature. */
export const isGenericGrpc = (id: string): boolean => /\.(ceph|nfs)?[gG]rpc(Call|Request|Response|Error)(Driver|VA)?$/.test(id);

/**
 * The stage of a PersistentVolume entering `phase` when it is not the provisioning's (Bound, Available): Released (its claim
 * gone, pv_controller.go syncVolume) and Failed (a failed delete or recycle, v1.30 :916 updateVolumePhase) are the reclaim's,
 * the delete. The PV controller's machine gives its step this stage; lineStage reads a pasted line the same way.
 */
export const stageOfVolumePhase = (phase: string): 'delete' | undefined => (phase === 'Released' || phase === 'Failed' ? 'delete' : undefined);

export function lineStage(id: string, def: { stage: Stage; source: string }, hints: { method?: string | null; error?: string | null; text?: string | null }): Stage {
  if (def.source === 'node-driver-registrar') return 'register';
  // ceph-csi's request id is the request's name: a CreateSnapshot's is "snapshot-<VolumeSnapshot UID>" (a group snapshot's "groupsnapshot-…"),
  // so its journal and RBD lines (the same messages CreateVolume prints) say which call they serve
  if (/^csiControllerPlugin\.ceph/.test(id) && !isGenericGrpc(id) && /\bReq-ID: (group)?snapshot-/.test(hints.text ?? '')) return 'snapshot';
  // (and a CreateVolume's is the PV's name, "pvc-<claim UID>": its lines and its gRPC error, "Aborted … an operation with the
  // given Volume ID pvc-… already exists", serve the provisioning, whatever the error text names)
  if (/^csi(Controller|Node)Plugin\.ceph/.test(id) && CEPH_CREATE_VOLUME_REQ.test(hints.text ?? '')) return 'provision';
  // (and a snapshot image ceph-csi names csi-snap-<uuid> taken down, "rbd: snap rm pool/csi-snap-…@csi-snap-…": DeleteSnapshot's,
  // whose request id is the snapshot's CSI id; a restore clones from it, "rbd: clone pool/csi-snap-…", which is provisioning)
  if (/^csiControllerPlugin\.ceph/.test(id) && !isGenericGrpc(id) && /\brbd: (snap rm|rm|trash mv|trash remove) [\w.-]+\/csi-snap-/.test(hints.text ?? '')) return 'snapshot';
  // the PV controller's "volume … entered phase …": its phase says which stage (stageOfVolumePhase)
  if (id === 'pvController.volumeEnteredPhase') {
    const phase = /\bphase[= ]\\?"(\w+)\\?"/.exec(hints.text ?? '')?.[1];
    const s = phase ? stageOfVolumePhase(phase) : undefined;
    if (s) return s;
  }
  // kube-scheduler's "Unable to schedule pod; no fit; waiting": a pod that fits no node is the scheduler's matter, unless its
  // claims are why ("pod has unbound immediate PersistentVolumeClaims", "didn't find available persistent volumes to bind"),
  // as its FailedScheduling Event's message reads
  if (id === 'kubeScheduler.unschedulable') return stageOfText(hints.error ?? hints.text ?? '') === 'provision' ? 'provision' : 'other';
  let identity = false;
  if (hints.method) {
    const s = stageOfMethod(hints.method);
    if (s) return s;
    identity = isHandshakeMethod(hints.method);
  }
  // an identity/capability call, or a question about a volume's health or capabilities: 'other', unless the line's own
  // payload or error says otherwise (a stale method); a payload of only a volume id is ControllerGetVolume's own request
  // (external-health-monitor's), not a DeleteVolume's
  if (identity) {
    if (!isGenericGrpc(id)) return 'other';
    const payload = stageOfPayload(hints.text ?? '');
    return (payload === 'delete' && /ControllerGetVolume$/.test(hints.method!) ? null : payload) ?? (hints.error ? stageOfText(hints.error) : null) ?? 'other';
  }
  // a gRPC line without its method: its payload's fields, or what its text talks about, else nothing in particular
  if (isGenericGrpc(id)) return stageOfPayload(hints.text ?? '') ?? stageOfText(hints.error ?? hints.text ?? '') ?? 'other';
  if (hints.error && STAGE_FROM_ERROR.has(id)) {
    // (csi-attacher names its operation before the driver's error, "Error processing \"csi-…\": failed to attach: rpc error: …
    // status: Creating", csi_handler.go: the attach failed, whatever the driver's words say)
    const wrapped = /"csi-[0-9a-f]+": failed to (attach|detach)\b/.exec(hints.text ?? '');
    if (wrapped) return wrapped[1] === 'attach' ? 'attach' : 'detach';
    const s = stageOfText(hints.error);
    if (s) return s;
  }
  return def.stage;
}

/**
 * The CSI call a request or response payload belongs to, from the fields only that call has
 * (csi.proto): staging_target_path → NodeStage/NodeUnstage, publish_context → ControllerPublish…
 */
export function stageOfPayload(text: string): Stage | null {
  const j = text.indexOf('{');
  // protobuf's text format, as drivers that log with %v/%+v print a request ("GRPC request: name:\"pvc-…\"
  // capacity_range:<required_bytes:…> …"; newer prototext nests with {}): its field names stand bare
  const proto = TEXT_PROTO_PAYLOAD.exec(text);
  if (proto && (j < 0 || j > proto.index + proto[0].length - proto[1]!.length)) {
    const p = proto[1]!;
    const fields = new Set([...p.matchAll(/(?:^|[\s<{])(\w+)\s*[:<{]/g)].map((m) => m[1]!));
    return payloadStage((k) => fields.has(k), () => /^volume_id:"[^"]*"\s*(secrets:.*)?$/s.test(p.trim()));
  }
  if (j < 0) return null;
  const p = text.slice(j).replace(/\\"/g, '"');
  const has = (k: string): boolean => p.includes(`"${k}"`);
  // a request that names only a volume (and maybe secrets) is DeleteVolume's
  return payloadStage(has, () => {
    const keys = [...p.matchAll(/"(\w+)":/g)].map((m) => m[1]!).filter((k) => k !== 'secrets');
    // (protosanitizer prints a request as JSON with its keys sorted: stripped secrets come first, {"secrets":"***stripped***","volume_id":…})
    return keys.length === 1 && keys[0] === 'volume_id' && /^\{("secrets":"[^"]*",)?"volume_id":/.test(p);
  });
}

/** "GRPC request: name:…", "create volume req: name:…", "Create Volume Request: name:…" (kubevirt-csi-driver's controller.go):
 * a payload in protobuf's text format (the field name, then ':', '<' or '{') */
const TEXT_PROTO_PAYLOAD = /\b(?:[Rr]equest|[Rr]esponse|[Rr]eq|[Rr]esp): ?([a-z][a-z_]*\s*[:<{].*)$/s;

/** The stage of a CSI request or response from which fields it has (either encoding). */
function payloadStage(has: (k: string) => boolean, onlyVolumeId: () => boolean): Stage | null {
  // a GetCapabilities answer, GetPluginInfo's: the handshake, whatever capabilities they list
  if (has('capabilities') || has('vendor_version')) return 'other';
  if (has('accessibility_requirements') || (has('capacity_range') && has('name') && !has('volume_id')) || (has('volume') && has('capacity_bytes') && !has('node_expansion_required'))) return 'provision';
  if (has('node_expansion_required') || (has('capacity_range') && has('volume_id'))) return 'resize';
  if (has('source_volume_id') || has('snapshot_id') || has('snapshot')) return 'snapshot';
  if (has('publish_context') && has('node_id') && !has('staging_target_path')) return 'attach';
  // ControllerPublishVolume: the node and how to use the volume there (readonly is left out when false;
  // NodeStage/NodePublish carry no node_id, ControllerUnpublish no capability)
  if (has('node_id') && has('volume_capability')) return 'attach';
  if (has('staging_target_path') && has('target_path')) return 'mount';
  if (has('staging_target_path') && has('volume_capability')) return 'mount';
  if (has('staging_target_path')) return 'unmount';
  if (has('target_path') && has('volume_capability')) return 'mount';
  if (has('target_path')) return 'unmount';
  if (has('node_id') && has('volume_id')) return 'detach';
  // NodeGetInfo's answer: the node's id, with its volume limit and topology
  if (has('node_id')) return 'register';
  // NodeGetVolumeStats: a volume and its path, nothing else
  if (has('volume_path') && has('volume_id')) return 'other';
  if (onlyVolumeId()) return 'delete';
  return null;
}
