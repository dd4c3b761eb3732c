/**
 * Text of the expand controller (kube-controller-manager). Its one line at -v=0, after the ExternalExpanding Event.
 * upstream: pkg/controller/volume/expand/expand_controller.go syncHandler, read at v1.20.5 (:277, klog.Infof) and
 * v1.30.1 (:280, the controller's logger, named persistentvolume-expander-controller by controllermanager.go).
 */
import { defineMessages } from '../shared/messages.ts';

const SRC = 'kube-controller-manager' as const;
const LOGGER = 'logger="persistentvolume-expander-controller"';

export const expandControllerMessages = defineMessages({
  'expandController.waitingForExternalController': {
    source: SRC, stage: 'resize', severity: 'I',
    summary: 'The expand controller finds no in-tree plugin that can expand claim {claim}: it leaves the claim to an external resizer (csi-resizer) and does not requeue it.',
    formats: {
      '1.20': { file: 'expand_controller.go', line: 277, text: "Ignoring the PVC {claim:q} (uid: {uid:q}) : didn't find a plugin capable of expanding the volume; waiting for an external controller to process this PVC.", v: 0 },
      '1.30': { file: 'expand_controller.go', line: 280, msg: 'Waiting for an external controller to expand the PVC', kv: `${LOGGER} pvcKey={claim:q} pvcUID={uid:q}`, v: 0 },
    },
  },
});
