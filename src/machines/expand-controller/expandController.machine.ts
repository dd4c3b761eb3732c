/**
 * The expand controller of kube-controller-manager (its events come from "volume_expand"). It looks at a
 * bound claim when its request grows or its status capacity grows (the informer's UpdateFunc), and when its
 * request is more than its capacity it finds the in-tree plugin that could expand the volume. A CSI volume has
 * none: kube-controller-manager's plugin manager holds only in-tree expandable plugins, so
 * FindExpandablePluginBySpec fails ("no volume plugin matched") and the controller records ExternalExpanding,
 * a Warning, and leaves the claim to csi-resizer without requeueing it. The message is the release's: "Ignoring
 * the PVC: didn't find a plugin capable of expanding the volume; waiting for an external controller to process
 * this PVC." up to 1.26, "waiting for an external controller to expand this PVC" from 1.27 (kubernetes#115345);
 * the Warning became Normal in 1.31 (kubernetes#124317).
 * upstream: pkg/controller/volume/expand/expand_controller.go (NewExpandController's UpdateFunc, enqueuePVC,
 * syncHandler), pkg/volume/plugins.go (FindExpandablePluginBySpec).
 * Left out: in-tree and CSI-migrated volumes (no profile's driver is either), the GET of the PV syncHandler makes
 * (GETs are not steps) and the informers' resync (12h and more, past every scenario).
 */
import { setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import { type K8sObject, kobj } from '../shared/k8s.ts';
import { parseQuantity } from '../shared/quantity.ts';
import { getProfile } from '../profiles/index.ts';

export type ExpandControllerInput = ComponentInput;

export interface ExpandControllerContext {
  input: ExpandControllerInput;
  /** claims by "ns/name", volumes by name (its informers) */
  claims: Record<string, K8sObject>;
  volumes: Record<string, K8sObject>;
}

const requested = (pvc: K8sObject | undefined): number => parseQuantity(pvc?.spec?.resources?.requests?.storage);
const capacity = (pvc: K8sObject | undefined): number => parseQuantity(pvc?.status?.capacity?.storage);

/** util.AnnPreResizeCapacity (pkg/volume/util/resize_util.go) */
const ANN_PRE_RESIZE_CAPACITY = 'volume.alpha.kubernetes.io/pre-resize-capacity';

/** syncHandler, for a CSI volume: a claim asking for more than it has is left to an external resizer, with an Event. */
function syncHandler(c: ExpandControllerContext, pvc: K8sObject, out: ClusterEmitted[]): void {
  const pv = c.volumes[pvc.spec?.volumeName ?? ''];
  const ref = pv?.spec?.claimRef;
  if (!pv || !ref || ref.namespace !== pvc.metadata.namespace || ref.uid !== pvc.metadata.uid) return;
  if (requested(pvc) <= capacity(pvc) && pv.metadata.annotations?.[ANN_PRE_RESIZE_CAPACITY] === undefined) return;
  if (!pv.spec?.csi) return;
  out.push({
    type: 'event.recorded', involved: { kind: 'PersistentVolumeClaim', namespace: pvc.metadata.namespace!, name: pvc.metadata.name },
    eventType: 'Warning', reason: 'ExternalExpanding', message: getProfile(c.input.profile).expandControllerExternalMessage,
  });
  // (the recorder hands the Event to its broadcaster; the line below is the controller's own, right after it)
  // (its timing from the controller's own stream: the line moves no other component's, LogEmitted.ownStream)
  out.push({ type: 'log', msg: 'expandController.waitingForExternalController', args: { claim: kobj(pvc), uid: pvc.metadata.uid ?? '' }, ownStream: true });
}

export const expandControllerMachine = setup({
  types: { context: {} as ExpandControllerContext, events: {} as ClusterEvent, emitted: {} as ClusterEmitted, input: {} as ExpandControllerInput },
  actions: {
    /** the informers' handlers: keep the caches, and sync a bound claim whose request or capacity grew */
    processChange: reaction<ExpandControllerContext, ClusterEvent, ClusterEmitted>((context, event) => {
      // the caches are updated in place, for scale (the actor owns its context)
      const c: ExpandControllerContext = { ...context };
      const out: ClusterEmitted[] = [];
      if (event.type !== 'watch.added' && event.type !== 'watch.modified' && event.type !== 'watch.deleted') return { ctx: c, out };
      const o = event.object;
      const gone = event.type === 'watch.deleted';
      if (o.kind === 'PersistentVolume') {
        if (gone) delete c.volumes[o.metadata.name]; else c.volumes[o.metadata.name] = o;
      } else if (o.kind === 'PersistentVolumeClaim') {
        if (gone) { delete c.claims[kobj(o)]; return { ctx: c, out }; }
        c.claims[kobj(o)] = o;
        // AddFunc enqueues every claim; UpdateFunc one whose request or capacity grew; enqueuePVC only a Bound one
        const old = event.type === 'watch.modified' ? event.oldObject : undefined;
        const grew = !old || requested(o) > requested(old) || capacity(o) > capacity(old);
        if (grew && o.status?.phase === 'Bound') syncHandler(c, o, out);
      }
      return { ctx: c, out };
    }),
  },
}).createMachine({
  id: 'expandController',
  initial: 'stopped',
  context: ({ input }) => ({ input, claims: {}, volumes: {} }),
  states: {
    stopped: { description: 'kube-controller-manager is not running.', on: { 'component.started': 'running' } },
    running: {
      description: 'Watches claims and volumes; records ExternalExpanding on a bound claim of a CSI volume that asks for more than it has.',
      on: {
        'watch.added': { actions: 'processChange' },
        'watch.modified': { actions: 'processChange' },
        'watch.deleted': { actions: 'processChange' },
        'host.shutdown': { target: 'stopped' },
      },
    },
  },
});
