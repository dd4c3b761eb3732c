/**
 * Random custom scenarios for the property tests: random nodes, claims (access modes the driver
 * serves), pods and StatefulSets, drivers with random capabilities and latencies, a random timeline
 * (pod and claim deletions, new pods, node shutdowns, controller restarts) and random faults (CSI,
 * API errors and delays, informer delays). Each run is kept small so that ten thousand fit in a CI
 * run. A failure is written out as a scenario file and printed as the CLI command that replays it.
 */
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { stringify } from 'yaml';
import {
  checkInvariants, objectsOf, phaseAt, runScenario, type Fault, type K8sObject, type ScenarioSpec, type StoryAction, type Trace,
} from '../../src/machines/index.ts';

export const PROFILES = ['1.20', '1.30'] as const;
const CONTROLLERS = ['external-attacher', 'external-provisioner', 'attach-detach-controller', 'pv-controller', 'kube-scheduler', 'statefulset-controller'] as const;
const NODE_RPCS = ['NodeStageVolume', 'NodePublishVolume', 'NodeUnpublishVolume', 'NodeUnstageVolume'] as const;
const CONTROLLER_RPCS = ['CreateVolume', 'DeleteVolume', 'ControllerPublishVolume', 'ControllerUnpublishVolume'] as const;
/** codes a backend plausibly answers; DEADLINE_EXCEEDED hangs until the caller's deadline (2m for the kubelet) */
const CODES = ['ABORTED', 'INTERNAL', 'UNAVAILABLE', 'RESOURCE_EXHAUSTED', 'DEADLINE_EXCEEDED'] as const;

export interface Drawn {
  spec: ScenarioSpec;
  k8s: (typeof PROFILES)[number];
  seed: number;
  /** the cluster is expected to settle: nothing stops it for good (no node stays down) */
  converges: boolean;
}

const claimOf = (name: string, mode: string): K8sObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name },
  spec: { accessModes: [mode], resources: { requests: { storage: '1Gi' } } },
});
const podOf = (name: string, claim: string, nodeName?: string): K8sObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: {
    ...(nodeName ? { nodeName } : {}), terminationGracePeriodSeconds: 1,
    containers: [{ name: 'app', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }],
  },
});
const setOf = (replicas: number): K8sObject => ({
  apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' },
  spec: {
    replicas, podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'db' } },
    template: { metadata: { labels: { app: 'db' } }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'db', image: 'postgres', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
  },
});

export const drawn: fc.Arbitrary<Drawn> = fc.record({
  k8s: fc.constantFrom(...PROFILES),
  seed: fc.integer({ min: 0, max: 1_000_000 }),
  nodes: fc.integer({ min: 1, max: 3 }),
  attach: fc.boolean(), stage: fc.boolean(), rwx: fc.boolean(),
  // a driver without PUBLISH_UNPUBLISH_VOLUME whose CSIDriver still says attachRequired (as ceph-csi RBD):
  // Kubernetes attaches, the external-attacher's trivial handler marks it attached
  trivial: fc.boolean(),
  wffc: fc.boolean(),
  publishMs: fc.integer({ min: 50, max: 3000 }),
  stageMs: fc.integer({ min: 10, max: 800 }),
  claims: fc.array(fc.record({ rwx: fc.boolean(), pods: fc.integer({ min: 0, max: 2 }), pinned: fc.boolean() }), { minLength: 1, maxLength: 2 }),
  set: fc.integer({ min: 0, max: 2 }),
  existing: fc.boolean(),
  actions: fc.array(fc.record({
    at: fc.integer({ min: 0, max: 40_000 }),
    what: fc.constantFrom('deletePod', 'deleteClaim', 'newPod', 'restart', 'shutdown', 'cordon'),
    pick: fc.nat(),
  }), { maxLength: 3 }),
  faults: fc.array(fc.oneof(
    fc.record({ kind: fc.constant('csi' as const), rpc: fc.constantFrom(...NODE_RPCS, ...CONTROLLER_RPCS), code: fc.constantFrom(...CODES), count: fc.integer({ min: 1, max: 2 }), from: fc.integer({ min: 0, max: 20_000 }) }),
    fc.record({ kind: fc.constant('apiDelay' as const), delay: fc.integer({ min: 100, max: 8000 }), count: fc.integer({ min: 1, max: 4 }), target: fc.constantFrom('kubelet-status', 'adc-status', 'va-status') }),
    fc.record({ kind: fc.constant('apiError' as const), count: fc.integer({ min: 1, max: 2 }), target: fc.constantFrom('va-create', 'pv-create', 'pod-status') }),
    fc.record({ kind: fc.constant('informer' as const), delay: fc.integer({ min: 500, max: 15_000 }), who: fc.constantFrom('attach-detach-controller', 'external-attacher', 'kubelet'), what: fc.constantFrom('Node', 'Pod', 'VolumeAttachment', undefined), until: fc.integer({ min: 5000, max: 40_000 }) }),
  ), { maxLength: 2 }),
}).map((d): Drawn => {
  const nodes = Array.from({ length: d.nodes }, (_, i) => `node-${i + 1}`);
  const rwx = d.attach ? d.rwx : d.rwx; // a multi-node backend, attach or not
  const objects: K8sObject[] = [{
    apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'disk.csi.example.com',
    volumeBindingMode: d.wffc ? 'WaitForFirstConsumer' : 'Immediate', reclaimPolicy: 'Delete',
  }];
  if (!d.attach && d.trivial) objects.push({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'disk.csi.example.com' }, spec: { attachRequired: true } });
  const pods: string[] = [];
  const claims: string[] = [];
  d.claims.forEach((c, i) => {
    const name = `data-${i}`;
    const mode = c.rwx && rwx ? 'ReadWriteMany' : 'ReadWriteOnce';
    objects.push(claimOf(name, mode));
    claims.push(name);
    // a ReadWriteOnce claim serves pods of one node: more than one pod shares it only pinned to the same node
    // (with WaitForFirstConsumer nothing is pinned: a pod bound to its node without the scheduler never
    // gets its claim provisioned, as upstream)
    const pinned = c.pinned && !d.wffc;
    const n = mode === 'ReadWriteOnce' && !pinned ? Math.min(c.pods, 1) : c.pods;
    for (let p = 0; p < n; p++) {
      const node = pinned ? nodes[i % nodes.length] : mode === 'ReadWriteMany' && !d.wffc ? nodes[p % nodes.length] : undefined;
      objects.push(podOf(`app-${i}-${p}`, name, node));
      pods.push(`app-${i}-${p}`);
    }
  });
  if (d.set > 0) objects.push(setOf(d.set));
  let converges = true;
  const cordoned = new Set<string>();
  const deletedClaims = new Set<string>();
  const actions: StoryAction[] = [];
  for (const a of d.actions) {
    switch (a.what) {
      case 'deletePod':
        if (pods.length) actions.push({ at: a.at, do: 'delete', kind: 'Pod', name: pods[a.pick % pods.length]! });
        break;
      case 'deleteClaim': {
        // a claim still used by a pod stays (pvc-protection), and a pod whose claim is being deleted never
        // starts (as upstream): delete its pods first, the late ones too, and add none afterwards
        const claim = claims[a.pick % claims.length]!;
        if (deletedClaims.has(claim)) break;
        deletedClaims.add(claim);
        const late = actions.filter((x): x is Extract<StoryAction, { do: 'create' }> => x.do === 'create' && x.object.spec.volumes[0].persistentVolumeClaim.claimName === claim);
        const at = Math.max(a.at, ...late.map((x) => Number(x.at) + 1));
        for (const p of [...pods.filter((x) => x.startsWith(`app-${claim.slice(5)}-`)), ...late.map((x) => x.object.metadata.name)]) actions.push({ at, do: 'delete', kind: 'Pod', name: p });
        actions.push({ at: at + 1000, do: 'delete', kind: 'PersistentVolumeClaim', name: claim });
        break;
      }
      case 'newPod': {
        const claim = claims[a.pick % claims.length]!;
        if (deletedClaims.has(claim)) break;
        const o = objects.find((x) => x.kind === 'PersistentVolumeClaim' && x.metadata.name === claim)!;
        if (o.spec.accessModes[0] !== 'ReadWriteMany') break;
        const name = `late-${actions.length}`;
        actions.push({ at: a.at, do: 'create', object: podOf(name, claim, d.wffc ? undefined : nodes[a.pick % nodes.length]) });
        break;
      }
      case 'restart': {
        // a controller, or the kubelet of a node (its mounts outlive it: it reconstructs them on 1.30)
        const i = a.pick % (CONTROLLERS.length + nodes.length);
        actions.push({ at: a.at, do: 'restart', component: i < CONTROLLERS.length ? CONTROLLERS[i]! : `kubelet/${nodes[i - CONTROLLERS.length]!}` });
        break;
      }
      case 'shutdown':
        actions.push({ at: a.at, do: 'shutdownNode', node: nodes[a.pick % nodes.length]! });
        converges = false;
        break;
      case 'cordon': {
        const node = nodes[a.pick % nodes.length]!;
        actions.push({ at: a.at, do: 'patch', kind: 'Node', name: node, patch: { spec: { unschedulable: true } } });
        cordoned.add(node);
        // with every node cordoned a pod not scheduled yet waits for good
        if (cordoned.size === nodes.length) converges = false;
        break;
      }
    }
  }
  const faults: Fault[] = d.faults.map((f): Fault => {
    switch (f.kind) {
      case 'csi': return { rpc: f.rpc, code: f.code, count: f.count, from: f.from };
      case 'apiDelay': return f.target === 'kubelet-status'
        ? { type: 'api', verb: 'patchStatus', kind: 'Node', component: 'kubelet', delayMs: f.delay, count: f.count }
        : f.target === 'adc-status'
          ? { type: 'api', verb: 'patchStatus', kind: 'Node', component: 'attach-detach-controller', delayMs: f.delay, count: f.count }
          : { type: 'api', verb: 'patch', kind: 'VolumeAttachment', component: 'external-attacher', delayMs: f.delay, count: f.count };
      case 'apiError': return f.target === 'va-create'
        ? { type: 'api', verb: 'create', kind: 'VolumeAttachment', code: 500, count: f.count }
        : f.target === 'pv-create'
          ? { type: 'api', verb: 'create', kind: 'PersistentVolume', code: 500, count: f.count }
          : { type: 'api', verb: 'patchStatus', kind: 'Pod', code: 409, count: f.count };
      case 'informer': return { type: 'informer', component: f.who, ...(f.what ? { kind: f.what } : {}), delayMs: f.delay, until: f.until };
    }
  });
  return {
    k8s: d.k8s, seed: d.seed, converges,
    spec: {
      id: 'property', nodes, objects: d.existing ? [] : objects, ...(d.existing ? { existing: objects } : {}),
      driver: {
        attachRequired: d.attach, stageUnstage: d.stage, accessModes: rwx ? ['ReadWriteOnce', 'ReadWriteMany'] : ['ReadWriteOnce'],
        latencies: { ControllerPublishVolume: d.publishMs, ControllerUnpublishVolume: d.publishMs, NodeStageVolume: d.stageMs },
      },
      actions, faults, warmUp: 5000, runFor: 60_000,
      // node status heartbeats only matter when a node stops posting them, or when a restarted kubelet's
      // volumesInUse must be reported again before the attach/detach controller may detach; without them
      // a run costs a third
      heartbeats: (!converges && actions.some((a) => a.do === 'shutdownNode')) || actions.some((a) => a.do === 'restart' && a.component.startsWith('kubelet/')),
    },
  };
});

/** What the cluster must have reached once the faults are spent: every pod that should run runs, everything deleted is gone. */
export function settled(t: Trace, d: Drawn): string | undefined {
  const deletedPods = new Set((d.spec.actions ?? []).filter((a) => a.do === 'delete' && a.kind === 'Pod').map((a) => (a as { name: string }).name));
  const deletedClaims = new Set((d.spec.actions ?? []).filter((a) => a.do === 'delete' && a.kind === 'PersistentVolumeClaim').map((a) => (a as { name: string }).name));
  for (const p of objectsOf(t, 'Pod')) {
    const name = p.metadata.name;
    if (deletedPods.has(name)) return `pod ${name} was deleted but is still there (${phaseAt(t, 'Pod', name)})`;
    // a StatefulSet pod deleted by the story comes back; either way a live pod ends Running
    if (p.status?.phase !== 'Running') return `pod ${name} is ${p.status?.phase ?? 'without status'}, not Running`;
  }
  const wffc = [...(d.spec.objects ?? []), ...(d.spec.existing ?? [])].some((o) => o.kind === 'StorageClass' && o.volumeBindingMode === 'WaitForFirstConsumer');
  const usedBy = (claim: string) => objectsOf(t, 'Pod').some((p) => (p.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claim));
  let waiting = 0;
  for (const c of objectsOf(t, 'PersistentVolumeClaim')) {
    if (deletedClaims.has(c.metadata.name)) return `claim ${c.metadata.name} was deleted but is still there`;
    // WaitForFirstConsumer: a claim no pod uses waits for one, unprovisioned
    if (wffc && c.status?.phase === 'Pending' && !usedBy(c.metadata.name)) { waiting++; continue; }
    if (c.status?.phase !== 'Bound') return `claim ${c.metadata.name} is ${c.status?.phase}, not Bound`;
  }
  const pvs = objectsOf(t, 'PersistentVolume');
  const claimsLeft = objectsOf(t, 'PersistentVolumeClaim').length - waiting;
  if (pvs.length !== claimsLeft) return `${pvs.length} PersistentVolumes for ${claimsLeft} claims (a deleted claim's volume was not reclaimed)`;
  const attachedPvs = new Set(objectsOf(t, 'VolumeAttachment').map((v) => v.spec?.source.persistentVolumeName));
  for (const pv of attachedPvs) if (!pvs.some((p) => p.metadata.name === pv)) return `a VolumeAttachment remains for deleted volume ${pv}`;
  return undefined;
}

/** Where to write a failing scenario, and the command that replays it. */
export function replayCommand(d: Drawn, label: string): string {
  const dir = new URL('../../test-results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`property-${label}-${d.seed}.yaml`, dir);
  const { objects = [], existing = [], id: _id, ...rest } = d.spec;
  const docs = [...existing, ...objects].map((o) => stringify(o));
  docs.push(stringify({
    apiVersion: 'csi-flows/v1', kind: 'Scenario', metadata: { name: 'property' },
    spec: { ...rest, k8s: d.k8s, ...(existing.length ? { existing: 'all' } : {}) },
  }));
  writeFileSync(file, docs.join('---\n'));
  return `npx csi-flows trace --file ${file.pathname} --seed ${d.seed}`;
}

/** One property run: safety always, convergence when nothing stays down. */
export function check(d: Drawn, label: string): void {
  const t = runScenario(d.spec, { k8s: d.k8s, seed: d.seed, extendBy: d.converges ? 15 * 60_000 : 0 });
  const v = checkInvariants(t).filter((x) => !x.known);
  if (v.length) throw new Error(`invariant broken (${v.map((x) => `rule ${x.rule} at step ${x.step}: ${x.message}`).join('; ')}); replay: ${replayCommand(d, label)}`);
  if (d.converges) {
    const why = settled(t, d);
    if (why) throw new Error(`did not settle: ${why}; replay: ${replayCommand(d, label)}`);
  }
}

/**
 * One of the four parts of the property run (they run in parallel): CUSTOM_PROPERTY_RUNS (default
 * 10000) is shared by the parts; PROPERTY_SEED reproduces a run.
 */
export function propertyPart(part: number): void {
  const runs = Math.ceil(Number(process.env.CUSTOM_PROPERTY_RUNS ?? 10_000) / 4);
  const seed = (process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : 20261201) + part;
  describe('random custom scenarios', () => {
    it(`keep every safety rule and settle once faults are spent: ${runs} runs (seed ${seed})`, () => {
      fc.assert(fc.property(drawn, (d) => check(d, `part${part}`)), { numRuns: runs, seed });
    }, 900_000);
  });
}
