#!/usr/bin/env python3
"""
Makes test/explain/upstream-lines.tsv: every log call of upstream's storage code, at two Kubernetes versions, at an old
and a new tag of each of the five sidecars and in eleven drivers, printed as the klog line it gives (its format filled with
sample values), with the stage of the function it sits in. The explainer's test reads the file; this script is how it
was made, and how to make it again at other tags.

  python3 scripts/upstream-lines.py K8S_1_20=<git dir> K8S_NEW=<git dir> PROVISIONER=<git dir> ATTACHER=<git dir> \
    AWS_EBS=<git dir> AZUREDISK=<git dir> GCE_PD=<git dir> NFS=<git dir> CEPH=<git dir> VSPHERE=<git dir> LONGHORN=<git dir> \
    RESIZER=<git dir> SNAPSHOTTER=<git dir> REGISTRAR=<git dir> ALIBABA=<git dir> JUICEFS=<git dir> CSI_S3=<git dir> TENCENT=<git dir> \
    > test/explain/upstream-lines.tsv

A set whose repository is not given is left out. Each <git dir> is a clone (bare is enough) of: a Kubernetes v1.20.5 tree (the project used github.com/davidstack/k8s1.20.5modify,
v1.20.5 with its changes outside these packages), a newer Kubernetes (github.com/openshift/microshift, whose
deps/github.com/openshift/kubernetes was 1.36), kubernetes-csi/external-provisioner and kubernetes-csi/external-attacher,
and seven drivers (kubernetes-sigs/aws-ebs-csi-driver, azuredisk-csi-driver, gcp-compute-persistent-disk-csi-driver,
kubernetes-csi/csi-driver-nfs, ceph/ceph-csi, kubernetes-sigs/vsphere-csi-driver, longhorn/longhorn-manager), of which only
the lines their CSI methods print are taken; then kubernetes-csi/external-resizer, external-snapshotter and
node-driver-registrar (each at an old and a new tag), and four more drivers (kubernetes-sigs/alibaba-cloud-csi-driver,
juicedata/juicefs-csi-driver, ctrox/csi-s3, TencentCloud/kubernetes-csi-tencentcloud).

The stage is the enclosing function's (STAGE_OF below, first match wins; "?" rows are left out): which function a line is
printed from is what makes it that step's, whatever words it uses. The few messages a function prints for another step
are named before the table (OVERRIDES). Events (recorder.Eventf) are left out: the explainer reads them by their reason.
"""
import json
import re
import subprocess
import sys

SETS = [  # (name, repo key, revision, path prefix, paths)
    ('k8s-1.20.5', 'K8S_1_20', 'HEAD', '', None),
    ('k8s-1.36', 'K8S_NEW', 'HEAD', 'deps/github.com/openshift/kubernetes/', None),
    ('external-provisioner-v2.2.2', 'PROVISIONER', 'v2.2.2', '', ['pkg/controller/controller.go', 'vendor/sigs.k8s.io/sig-storage-lib-external-provisioner/v6/controller/controller.go', 'vendor/sigs.k8s.io/sig-storage-lib-external-provisioner/v6/controller/volume_store.go']),
    ('external-provisioner-v6.3.0', 'PROVISIONER', 'v6.3.0', '', ['pkg/controller/controller.go', 'vendor/sigs.k8s.io/sig-storage-lib-external-provisioner/v13/controller/controller.go', 'vendor/sigs.k8s.io/sig-storage-lib-external-provisioner/v13/controller/volume_store.go']),
    ('external-attacher-v2.2.0', 'ATTACHER', 'v2.2.0', '', ['pkg/controller/csi_handler.go', 'pkg/controller/controller.go', 'pkg/controller/util.go']),
    ('external-attacher-v4.12.0', 'ATTACHER', 'v4.12.0', '', ['pkg/controller/csi_handler.go', 'pkg/controller/controller.go', 'pkg/controller/util.go']),
    # the in-tree plugins and the cloud providers' disk code at v1.20.5: only the lines of the functions INTREE_METHOD names
    ('k8s-1.20.5-in-tree', 'K8S_1_20', 'HEAD', '', ['pkg/volume/' + p for p in ('awsebs', 'gcepd', 'azuredd', 'cinder', 'vsphere_volume', 'rbd', 'iscsi', 'fc',
        'nfs', 'cephfs', 'glusterfs', 'local', 'portworx', 'flexvolume', 'azure_file', 'storageos', 'scaleio', 'quobyte')]
        + ['staging/src/k8s.io/legacy-cloud-providers/' + p for p in ('aws/aws.go', 'gce/gce_disks.go', 'azure/azure_controller_common.go',
           'azure/azure_controller_standard.go', 'azure/azure_controller_vmss.go', 'azure/azure_managedDiskController.go', 'openstack/openstack_volumes.go',
           'vsphere/vsphere.go')]),
    # drivers: only the lines their CSI methods print themselves (DRIVER_METHOD below)
    ('aws-ebs-csi-driver-v1.64.0', 'AWS_EBS', 'v1.64.0', '', ['pkg/driver/controller.go', 'pkg/driver/node.go']),
    ('azuredisk-csi-driver-v1.34.5', 'AZUREDISK', 'v1.34.5', '', ['pkg/azuredisk/controllerserver.go', 'pkg/azuredisk/nodeserver.go']),
    ('gcp-pd-csi-driver-v999.3.0', 'GCE_PD', 'v999.3.0', '', ['pkg/gce-pd-csi-driver/controller.go', 'pkg/gce-pd-csi-driver/node.go']),
    ('csi-driver-nfs-v4.13.4', 'NFS', 'v4.13.4', '', ['pkg/nfs/controllerserver.go', 'pkg/nfs/nodeserver.go']),
    ('ceph-csi-v3.12.2', 'CEPH', 'v3.12.2', '', ['internal/rbd/controllerserver.go', 'internal/rbd/nodeserver.go', 'internal/cephfs/controllerserver.go', 'internal/cephfs/nodeserver.go']),
    # logging through zap (vSphere, JSON records) and logrus (Longhorn, key=value records), printed as those loggers print
    ('vsphere-csi-driver-v3.7.3', 'VSPHERE', 'v3.7.3', '', ['pkg/csi/service/node.go', 'pkg/csi/service/vanilla/controller.go']),
    ('longhorn-manager-master', 'LONGHORN', 'HEAD', '', ['csi/node_server.go', 'csi/controller_server.go']),
    # the other sidecars, at an old and a new tag: every function of their controllers is their one step (SET_STAGE), but
    # the start-up ones
    ('external-resizer-v1.0.1', 'RESIZER', 'v1.0.1', '', ['pkg/controller/controller.go', 'pkg/resizer/csi_resizer.go']),
    ('external-resizer-v2.2.1', 'RESIZER', 'v2.2.1', '', ['pkg/controller/controller.go', 'pkg/controller/expand_and_recover.go', 'pkg/controller/resize_status.go', 'pkg/resizer/csi_resizer.go']),
    ('external-snapshotter-v4.2.1', 'SNAPSHOTTER', 'v4.2.1', '', ['pkg/common-controller/snapshot_controller.go', 'pkg/common-controller/snapshot_controller_base.go',
        'pkg/sidecar-controller/snapshot_controller.go', 'pkg/sidecar-controller/snapshot_controller_base.go', 'pkg/sidecar-controller/csi_handler.go']),
    ('external-snapshotter-v8.6.0', 'SNAPSHOTTER', 'v8.6.0', '', ['pkg/common-controller/snapshot_controller.go', 'pkg/common-controller/snapshot_controller_base.go',
        'pkg/sidecar-controller/snapshot_controller.go', 'pkg/sidecar-controller/snapshot_controller_base.go', 'pkg/sidecar-controller/csi_handler.go']),
    ('node-driver-registrar-v1.3.0', 'REGISTRAR', 'v1.3.0', '', ['cmd/csi-node-driver-registrar/main.go', 'cmd/csi-node-driver-registrar/node_register.go']),
    ('node-driver-registrar-v2.17.0', 'REGISTRAR', 'v2.17.0', '', ['cmd/csi-node-driver-registrar/main.go', 'cmd/csi-node-driver-registrar/node_register.go']),
    # four more drivers: Alibaba Cloud's disk and NAS (klog's contextual logger), JuiceFS (a logr logger named log), csi-s3
    # and Tencent Cloud's CBS and CFS (glog)
    ('alibaba-cloud-csi-driver-v1.37.1', 'ALIBABA', 'v1.37.1', '', ['pkg/disk/controllerserver.go', 'pkg/disk/nodeserver.go', 'pkg/nas/controllerserver.go', 'pkg/nas/nodeserver.go']),
    ('juicefs-csi-driver-v0.32.4', 'JUICEFS', 'v0.32.4', '', ['pkg/driver/controller.go', 'pkg/driver/node.go']),
    ('csi-s3-master', 'CSI_S3', 'HEAD', '', ['pkg/driver/controllerserver.go', 'pkg/driver/nodeserver.go']),
    ('tencentcloud-csi-master', 'TENCENT', 'HEAD', '', ['driver/cbs/controller.go', 'driver/cbs/node.go', 'driver/cfs/controller.go', 'driver/cfs/node.go']),
]
DRIVERS = ('AWS_EBS', 'AZUREDISK', 'GCE_PD', 'NFS', 'CEPH', 'VSPHERE', 'LONGHORN', 'ALIBABA', 'JUICEFS', 'CSI_S3', 'TENCENT')
# a logr logger held in a variable named log (JuiceFS): structured, as klog prints logr records
LOGR = ('JUICEFS',)
# the sidecars whose every controller function serves one step: (function, message, stage), the first match wins. Their
# start-up and informer set-up is no step, nor is the resizer's check whether a claim needs resizing ("No need to resize
# PVC", "PV is not a CSI volume, skip it": the corpus' labellers read those as other, no resize runs), and the registrar's
# main() prints the start-up lines every sidecar prints ("Version", "--connection-timeout is deprecated"): those are
# left out ('?'), its registration lines are its step
SET_STAGE = {
    'RESIZER': [(r'^(Run|NewResizeController|NewResizer\w*|syncPVC|pvNeedResize|CanSupport|getObjectKey|pvCanBeExpanded)$', r'', '?'),
                (r'^expandAndRecover$', r'^skipping updating status', '?'), (r'.', r'', 'resize')],
    'SNAPSHOTTER': [(r'^(Run|NewCSISnapshot\w*Controller|initializeCaches)$', r'', '?'), (r'.', r'', 'snapshot')],
    'REGISTRAR': [(r'^main$', r'^(?!.*(regist|socket))', '?'), (r'.', r'', 'register')],
}
# a driver's CSI method is the step it serves (csi.proto); its helpers are left out, as they may serve several
DRIVER_METHOD = {'CreateVolume': 'provision', 'DeleteVolume': 'delete', 'ControllerPublishVolume': 'attach', 'ControllerUnpublishVolume': 'detach',
                 'NodeStageVolume': 'mount', 'NodePublishVolume': 'mount', 'NodeUnstageVolume': 'unmount', 'NodeUnpublishVolume': 'unmount',
                 'ControllerExpandVolume': 'resize', 'NodeExpandVolume': 'resize', 'CreateSnapshot': 'snapshot', 'DeleteSnapshot': 'snapshot'}
# an in-tree plugin's methods (pkg/volume/volume.go: Attacher, DeviceMounter, Mounter, Unmounter, Detacher, Provisioner,
# Deleter) and its cloud's disk calls; a node-side "AttachDisk" (iSCSI login, rbd map, FC scan: disk_manager.go) is the mount's
INTREE_METHOD = [
    (r'/(iscsi|rbd|fc)/', r'^(AttachDisk|attachDisk|waitForPath\w*|searchDisk)$', 'mount'),
    (r'/(iscsi|rbd|fc)/', r'^(DetachDisk|detachDisk|DetachBlockISCSIDisk|DetachBlockFCDisk)$', 'unmount'),
    (r'.', r'^(Attach|AttachDisk|attachDisk|AttachDiskToNode)$', 'attach'),
    (r'.', r'^(Detach|DetachDisk|detachDisk|DetachDiskByName|DetachDiskFromNode)$', 'detach'),
    (r'.', r'^(WaitForAttach|MountDevice|SetUp|SetUpAt|setUpAtInternal|SetUpDevice|MapPodDevice|verifyDevicePath|getDevicePath)$', 'mount'),
    (r'.', r'^(UnmountDevice|TearDown|TearDownAt|TearDownDevice|UnmapPodDevice)$', 'unmount'),
    (r'.', r'^(Provision|CreateVolume|CreateImage|createVolume|CreateDisk|CreateRegionalDisk|CreateManagedDisk)$', 'provision'),
    (r'.', r'^(Delete|DeleteVolume|DeleteImage|deleteVolume|DeleteDisk|DeleteManagedDisk)$', 'delete'),
    (r'.', r'^(ExpandVolumeDevice|ExpandImage|NodeExpand|ResizeDisk|ExpandVolume)$', 'resize'),
]
# ceph-csi logs through its own helpers, with the call's id and request id before the message (internal/util/log)
CEPH_REQ = {'provision': 'pvc-5f3e9b2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b', 'snapshot': 'snapshot-7d1e2f3a-4b5c-6d7e-8f9a-0b1c2d3e4f5a'}
K8S_PATHS = ['pkg/volume/util/operationexecutor', 'pkg/kubelet/volumemanager', 'pkg/volume/csi', 'pkg/controller/volume',
             'pkg/kubelet/pluginmanager', 'pkg/volume/util/nestedpendingoperations', 'pkg/volume/util/util.go', 'pkg/volume/util/subpath',
             'pkg/volume/util/hostutil', 'pkg/volume/util/volumepathhandler', 'staging/src/k8s.io/mount-utils']

CALL = re.compile(r'\b((?:klog|glog)(?:\.V\(\w+\))?\.(?:Infof|Info|InfoS|Warningf|Warning|Errorf|Error|ErrorS)|logger(?:\.V\(\w+\))?\.(?:Info|Error)|\w+\.Generate(?:Msg|Error)(?:Detailed|Simple)|log\.(?:DebugLog|ErrorLog|UsefulLog|WarningLog|DefaultLog|ExtendedLog)|\blog(?:\.WithError\(\w+\))?\.(?:Infof|Debugf|Errorf|Warnf|Info|Debug|Error|Warn))\(')
FUNC = re.compile(r'^func (?:\([^)]*\) )?(\w+)')

# messages a function prints for another step than its own
OVERRIDES = [
    (lambda f, fn, msg: 'attachdetach/populator' in f and fn == 'findAndRemoveDeletedPods', 'detach'),
    (lambda f, fn, msg: 'kubelet/volumemanager/reconciler' in f and 'DetachVolume' in msg, 'detach'),
    (lambda f, fn, msg: 'kubelet/volumemanager/reconciler' in f and msg.startswith('Volume detached'), 'unmount'),
    (lambda f, fn, msg: re.search(r'(MountVolume|MapVolume)\.NodeEx(pand|apnd)Volume', msg) is not None, '?'),
    (lambda f, fn, msg: 'all PVCs bound and nothing to do' in msg, 'other'),  # the binder has nothing to place
    (lambda f, fn, msg: fn in ('shouldDelete', 'VerifyExhaustedResource'), '?'),
    (lambda f, fn, msg: fn == 'isDeviceOpened', 'unmount'),  # called by UnmountDevice and UnmapDevice
    (lambda f, fn, msg: re.search(r'unmapBindMountDevice|unmapSymlinkDevice', fn) is not None, 'unmount'),
]
STAGE_OF = [  # (file name regex, function regex, stage)
    (r'^csi_handler\.go$', r'syncAttach|csiAttach|saveAttachError|prepareVANodeID|getNodeID|addPVFinalizer', 'attach'),
    (r'^csi_handler\.go$', r'syncDetach|csiDetach|saveDetachError', 'detach'),
    (r'^util\.go$', r'markAsAttached', 'attach'),
    (r'^util\.go$', r'markAsDetached', 'detach'),
    (r'^controller\.go$', r'^Provision$|provisionClaimOperation|prepareProvision|getPVCSource|getSnapshotSource|^syncClaim$|rescheduleProvisioning|provisionVolumeErrorHandling|[sS]houldProvision|markForSlowRetry', 'provision'),
    (r'^controller\.go$', r'^Delete$|deleteVolumeOperation|handleSecretsForDeletion', 'delete'),
    (r'^volume_store\.go$', r'StoreVolume|doSaveVolume|sendSuccessEvent', 'provision'),
    (r'operation_generator', r'GenerateMountVolumeFunc|GenerateMapVolumeFunc|checkForFailedMount', 'mount'),
    (r'operation_generator', r'GenerateUnmount(Volume|Device)Func|GenerateUnmap(Volume|Device)Func', 'unmount'),
    (r'operation_generator', r'GenerateAttachVolumeFunc|GenerateVerifyControllerAttachedVolumeFunc', 'attach'),
    (r'operation_generator', r'GenerateDetachVolumeFunc|verifyVolumeIsSafeToDetach', 'detach'),
    (r'operation_generator', r'Expand|expand|NodeExpand|nodeExpand', 'resize'),
    (r'operation_generator', r'RegisterPlugin|UnregisterPlugin', 'register'),
    (r'csi_attacher', r'^Attach$|verifyAttachmentStatus|waitForVolumeAttachment', 'attach'),
    (r'csi_attacher', r'^Detach$|verifyDetachmentStatus|waitForVolumeDetachment', 'detach'),
    (r'csi_attacher', r'MountDevice$|WaitForAttach', 'mount'),
    (r'csi_attacher', r'UnmountDevice', 'unmount'),
    (r'csi_mounter', r'SetUpAt|podAttributes|supportsFSGroup|podServiceAccountTokenAttrs', 'mount'),
    (r'csi_mounter', r'TearDownAt|removeMountDir', 'unmount'),
    (r'csi_block', r'SetUpDevice|MapPodDevice|stageVolumeForBlock|publishVolumeForBlock', 'mount'),
    (r'csi_block', r'TearDownDevice|unstageVolumeForBlock|unpublishVolumeForBlock', 'unmount'),
    (r'csi_client', r'NodeStageVolume|NodePublishVolume', 'mount'),
    (r'csi_client', r'NodeUnstageVolume|NodeUnpublishVolume', 'unmount'),
    (r'csi_plugin', r'RegisterPlugin|ValidatePlugin|DeRegisterPlugin|initializeCSINode', 'register'),
    (r'csi_plugin', r'NewMounter|NewBlockVolumeMapper', 'mount'),
    (r'csi_plugin', r'NewUnmounter|NewBlockVolumeUnmapper', 'unmount'),
    (r'nodeinfomanager', r'.', 'register'),
    (r'^(expander|node_expander)\.go$', r'.', 'resize'),
    (r'expand_controller', r'expand|syncHandler|isNodeExpandComplete', 'resize'),
    (r'plugin_watcher|plugin_manager', r'.', 'register'),
    (r'pv_controller', r'provision|Provision|bind|Bind|syncUnboundClaim|assignDefaultStorageClass', 'provision'),
    (r'pv_controller', r'deleteVolumeOperation|doDeleteVolume|isVolumeReleased', 'delete'),
    (r'scheduler_binder', r'.', 'provision'),
    (r'desired_state_of_world_populator', r'findAndRemoveDeletedPods', 'unmount'),
    (r'desired_state_of_world_populator', r'processPodVolumes|createVolumeSpec', 'mount'),
    (r'desired_state_of_world_populator', r'checkVolumeFSResize', 'resize'),
    (r'reconciler', r'^unmountVolumes$|unmountDetachDevices', 'unmount'),
    (r'reconciler', r'attachDesiredVolumes|reportMultiAttachError', 'attach'),
    (r'reconciler', r'expandVolume', 'resize'),
    (r'mount_linux|mount_helper', r'formatAndMount|checkAndRepair|GetDiskFormat|getDiskFormat|doMount', 'mount'),
    (r'mount_linux|mount_helper', r'Unmount|CleanupMount|doCleanupMountPoint|removePath', 'unmount'),
    (r'subpath_linux', r'doBindSubPath|doSafeMakeDir|prepareSubpathTarget|doSafeOpen', 'mount'),
    (r'subpath_linux', r'doCleanSubPath|removeEmptyDirs', 'unmount'),
    (r'volume_path_handler', r'MapDevice|mapBindMountDevice|AttachFileDevice|makeLoopDevice', 'mount'),
    (r'volume_path_handler', r'UnmapDevice|DetachFileDevice|removeLoopDevice|RemoveMapPath', 'unmount'),
    (r'volume_manager', r'WaitForAttachAndMount', 'mount'),
    (r'volume_manager', r'WaitForUnmount', 'unmount'),
]
SKIP_FILES = re.compile(r'testing\.go$|example_|fake_|testvolumespec|_windows\.go$|/testing/')


def stage(path, fn, msg):
    for test, st in OVERRIDES:
        if test(path, fn, msg):
            return st
    base = path.split('/')[-1]
    for fr, fnr, st in STAGE_OF:
        if re.search(fr, base) and re.search(fnr, fn):
            return st
    return '?'


def intree_stage(path, fn):
    for pr, fnr, st in INTREE_METHOD:
        if re.search(pr, path) and re.search(fnr, fn):
            return st
    return '?'


def value(expr):
    """A sample value for a format argument, by what the Go expression names."""
    e = expr.strip().lower()
    if 'err' in e: return 'rpc error: code = Internal desc = failed'
    if 'uniquevolumename' in e or 'volumename' in e or 'volumehandle' in e or 'volumeid' in e: return 'kubernetes.io/csi/ebs.csi.aws.com^vol-0a1b2c3d'
    if 'pvc' in e or 'claim' in e: return 'default/data-web-0'
    if 'pv' in e or 'volume' in e: return 'pvc-5f3e9b2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b'
    if 'pod' in e: return 'default/web-0'
    if 'node' in e: return 'ip-10-0-1-23.ec2.internal'
    if 'vmdisk' in e or 'vmdk' in e: return '[datastore1] kubevols/kubernetes-dynamic-pvc-5f3e9b2a.vmdk'
    if 'device' in e or 'devpath' in e: return '/dev/xvdba'
    if 'mount' in e or 'target' in e or 'dir' in e or 'mnt' in e: return '/var/lib/kubelet/pods/8c1f2d3e/volumes/kubernetes.io~csi/pvc-5f3e9b2a/mount'
    if 'path' in e: return '/var/lib/kubelet/plugins/kubernetes.io/csi/pv/pvc-5f3e9b2a/globalmount'
    if 'driver' in e or 'plugin' in e: return 'ebs.csi.aws.com'
    return 'x1'


def args_of(text):
    """The call's arguments, split at its top-level commas."""
    depth, cur, out, q = 0, '', [], None
    for ch in text:
        if q:
            cur += ch
            if ch == q: q = None
            continue
        if ch in '"`': q = ch; cur += ch; continue
        if ch in '([{': depth += 1
        if ch in ')]}':
            if depth == 0: out.append(cur); return out
            depth -= 1
        if ch == ',' and depth == 0: out.append(cur); cur = ''; continue
        cur += ch
    out.append(cur)
    return out


def literal(s):
    s = s.strip()
    m = re.match(r'^"((?:[^"\\]|\\.)*)"$', s) or re.match(r'^`([^`]*)`$', s)
    return m.group(1).replace('\\"', '"') if m else None


def fill(fmt, args):
    i = [0]
    def rep(m):
        a = args[i[0]] if i[0] < len(args) else 'x'
        i[0] += 1
        if m.group(0).endswith('q'): return '"' + value(a) + '"'
        if m.group(0).endswith('d'): return '3'
        return value(a)
    return re.sub(r'%[-+#0-9.]*[vsqdwtTxf]', rep, fmt)


WITH_VALUES = re.compile(r'\b(\w+)\s*:?=\s*(?:klog\.LoggerWithValues\(|(\w+)\.WithValues\()')


def message(kind, a, carried=()):
    if 'Generate' in kind:
        p = literal(a[0]) if a else None
        if p is None: return None, 'I'
        s = literal(a[1]) if len(a) > 1 else ''
        tail = s if s is not None else ': rpc error: code = Internal desc = failed'
        return f'{p} for volume "pvc-5f3e9b2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b" (UniqueName: "kubernetes.io/csi/ebs.csi.aws.com^vol-0a1b2c3d") pod "web-0" (UID: "8c1f2d3e-4a5b-6c7d-8e9f-0a1b2c3d4e5f") {tail}'.rstrip(), 'E' if 'Error' in kind else 'I'
    sev = 'E' if 'Error' in kind else 'W' if 'Warning' in kind else 'I'
    if kind.startswith('log.') and kind.endswith('Log'):
        m = literal(a[1]) if len(a) > 1 else None
        return (fill(m, a[2:]) if m is not None else None), sev
    if re.match(r'log(\.WithError\(\w+\))?\.', kind):  # zap's sugared logger or a logrus entry: Infof(format, args…), Info(args…)
        m = literal(a[0]) if a else None
        if m is None: return None, sev
        return (fill(m, a[1:]) if kind.endswith('f') else m) + (': rpc error: code = Internal desc = failed' if 'WithError' in kind else ''), 'W' if 'Warn' in kind else 'D' if 'Debug' in kind else sev
    if kind.endswith(('InfoS', 'ErrorS')) or kind.startswith('logger'):
        k0 = 1 if kind.endswith(('ErrorS', '.Error')) else 0
        m = literal(a[k0]) if len(a) > k0 else None
        if m is None: return None, sev
        parts = [f'"{m}"'] + (['err="rpc error: code = Internal desc = failed"'] if k0 else [])
        # (a contextual logger prints the values it was made with, klog.LoggerWithValues / logger.WithValues, before the call's)
        kv = list(carried if kind.startswith('logger') else ()) + a[k0 + 1:]
        for j in range(0, len(kv) - 1, 2):
            k = literal(kv[j])
            if k is not None: parts.append(f'{k}="{value(kv[j + 1])}"')
        return ' '.join(parts), sev
    m = literal(a[0]) if a else None
    if m is None: return None, sev
    return (fill(m, a[1:]) if kind.endswith('f') else m), sev


def main():
    repos = dict(x.split('=', 1) for x in sys.argv[1:])
    seen, n = set(), 0
    print('# Upstream\'s log calls in its storage code, printed as klog lines, with the stage of the function each sits in:')
    print('# made by scripts/upstream-lines.py (read it for the sources, the tags and the function-to-stage table).')
    print('# <stage>\\t<set> <file>:<line> <function>\\t<line>')
    for name, key, rev, prefix, paths in SETS:
        if key not in repos: continue
        g = repos[key]
        paths = paths or K8S_PATHS
        files = subprocess.run(['git', '-C', g, 'ls-tree', '-r', '--name-only', rev, '--'] + [prefix + p for p in paths], capture_output=True, text=True, check=True).stdout.split()
        for f in files:
            if not f.endswith('.go') or f.endswith('_test.go') or SKIP_FILES.search(f): continue
            src = subprocess.run(['git', '-C', g, 'show', f'{rev}:{f}'], capture_output=True, text=True, check=True).stdout.split('\n')
            if key in LOGR: src = [re.sub(r'\blog\.((?:V\(\w+\)\.)?(?:Info|Error))\(', r'logger.\1(', x) for x in src]
            path, fn = f[len(prefix):], ''
            carried = {}  # a function's loggers made with values: variable -> the key/value expressions
            for i, line in enumerate(src):
                m = FUNC.match(line)
                if m: fn, carried = m.group(1), {}
                w = WITH_VALUES.search(line)
                if w:
                    text = ' '.join(x.strip() for x in src[i:i + 6])
                    args = args_of(text[w.end():])
                    carried[w.group(1)] = carried.get(w.group(2), []) + (args[1:] if w.group(2) is None else args)
                for c in CALL.finditer(line):
                    text = ' '.join(x.strip() for x in src[i:i + 6])
                    text = text[text.find(c.group(0)) + len(c.group(0)):]
                    msg, sev = message(c.group(1), args_of(text), carried.get('logger', ()))
                    if msg is None: continue
                    msg = msg.replace('\\n', '').replace('\\t', ' ')
                    st = DRIVER_METHOD.get(fn, '?') if key in DRIVERS else intree_stage(path, fn) if name.endswith('-in-tree') \
                        else next(st for r, mr, st in SET_STAGE[key] if re.search(r, fn) and re.search(mr, msg)) if key in SET_STAGE else stage(path, fn, msg)
                    if key == 'CEPH' and st != '?':
                        msg = f'ID: 12 Req-ID: {CEPH_REQ.get(st, "0001-0009-rook-ceph-0000000000000002-6e1f2a3b-4c5d-6e7f-8a9b-0c1d2e3f4a5b")} {msg}'
                    base = path.split('/')[-1]
                    key2 = (base, msg)
                    if st == '?' or key2 in seen: continue
                    seen.add(key2)
                    if key == 'VSPHERE':
                        level = {'I': 'info', 'W': 'warn', 'E': 'error', 'D': 'debug'}[sev]
                        rec = json.dumps({'level': level, 'time': f'2024-12-06T10:15:42.{123 + n % 800:03d}Z', 'caller': f'{path.split("/")[-2]}/{base}:{i + 1}', 'msg': msg, 'TraceId': '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'})
                        print('\t'.join([st, f'{name} {path}:{i + 1} {fn}', rec]))
                    elif key == 'LONGHORN':
                        level = {'I': 'info', 'W': 'warning', 'E': 'error', 'D': 'debug'}[sev]
                        side = 'csi-node-server' if 'node_server' in path else 'csi-controller-server'
                        print('\t'.join([st, f'{name} {path}:{i + 1} {fn}', f'time="2024-12-06T10:15:42Z" level={level} msg={json.dumps(msg)} component={side} function={fn}']))
                    else:
                        print('\t'.join([st, f'{name} {path}:{i + 1} {fn}', f'{sev}1206 10:15:42.{123456 + n:06d}    2143 {base}:{i + 1}] {msg}']))
                    n += 1


if __name__ == '__main__':
    main()
