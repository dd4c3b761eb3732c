/**
 * A StorageClass's allowedTopologies: the scheduler places a WaitForFirstConsumer claim's pod within them
 * (checkVolumeProvisions: "node(s) didn't find available persistent volumes to bind" elsewhere) and csi-provisioner
 * asks CreateVolume for them (GenerateAccessibilityRequirements: the requisite is the flattened terms, the preferred
 * starts at the selected node's). upstream: external-provisioner pkg/controller/topology.go (v5.0.1 :135-270,
 * flatten :407-439), kube-scheduler volumebinding binder.go FindPodVolumes / checkVolumeProvisions.
 */
import { describe, expect, it } from 'vitest';
import { runScenario, scenarioFromManifests, type K8sObject } from '../../src/machines/index.ts';
import { accessibilityRequirements } from '../../src/machines/external-provisioner/requests.ts';
import { matchTopologySelectorTerms } from '../../src/machines/kube-scheduler/filter.ts';

const ZONE = 'topology.kubernetes.io/zone';
/** three nodes in zones a, b, c; a class of the generic driver with the binding mode and allowed zones given; a pod of `claims` claims */
function file(k8s: '1.20' | '1.30', o: { mode: 'Immediate' | 'WaitForFirstConsumer'; zones?: string[][]; strict?: boolean; claims?: string[] }): string {
  const claims = o.claims ?? ['data'];
  const allowed = o.zones ? `\nallowedTopologies:\n${o.zones.map((zs) => `  - matchLabelExpressions: [{ key: ${ZONE}, values: [${zs.join(', ')}] }]`).join('\n')}` : '';
  return [
    `apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: { name: zonal }\nprovisioner: disk.csi.example.com\nvolumeBindingMode: ${o.mode}${allowed}`,
    ...claims.map((c) => `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: { name: ${c} }\nspec: { accessModes: [ReadWriteOnce], storageClassName: zonal, resources: { requests: { storage: 1Gi } } }`),
    `apiVersion: v1\nkind: Pod\nmetadata: { name: app }\nspec:\n  containers: [{ name: app, image: busybox }]\n  volumes: [${claims.map((c) => `{ name: ${c}, persistentVolumeClaim: { claimName: ${c} } }`).join(', ')}]`,
    `apiVersion: csi-flows/v1\nkind: Scenario\nmetadata: { name: zones }\nspec:\n  k8s: "${k8s}"\n  nodes: [{ name: node-a, zone: a }, { name: node-b, zone: b }, { name: node-c, zone: c }]\n${o.strict ? '  flags: { external-provisioner: { strict-topology: true } }\n' : ''}  runFor: 40s\n`,
  ].join('\n---\n');
}
type Trace = ReturnType<typeof runScenario>;
const createVolumes = (t: Trace) => t.steps.filter((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/CreateVolume')
  .map((s) => (s.rpc!.request as { accessibility_requirements?: { requisite: Array<{ segments: Record<string, string> }>; preferred: Array<{ segments: Record<string, string> }> } }).accessibility_requirements);
const zonesOf = (terms: Array<{ segments: Record<string, string> }> | undefined) => (terms ?? []).map((t) => t.segments[ZONE]);
const pod = (t: Trace) => t.final.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'app')!;

describe('a StorageClass\'s allowedTopologies', () => {
  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: WaitForFirstConsumer: the pod goes to a node in an allowed zone; CreateVolume asks for the allowed zones, the selected node's first`, () => {
      const t = runScenario(scenarioFromManifests(file(k8s, { mode: 'WaitForFirstConsumer', zones: [['b', 'c']] })));
      const node = pod(t).spec.nodeName as string;
      expect(['node-b', 'node-c']).toContain(node);
      const [req] = createVolumes(t);
      expect(zonesOf(req!.requisite)).toEqual(['b', 'c']);
      expect(zonesOf(req!.preferred)).toEqual(node === 'node-b' ? ['b', 'c'] : ['c', 'b']);
      // without allowedTopologies, every node's zone
      expect(zonesOf(createVolumes(runScenario(scenarioFromManifests(file(k8s, { mode: 'WaitForFirstConsumer' }))))[0]!.requisite)).toEqual(['a', 'b', 'c']);
      expect(pod(t).status.phase).toBe('Running');
    });

    it(`${k8s}: Immediate: the requisite is the allowed zones alone (no node's zone is added), each expression's values distributed`, () => {
      const t = runScenario(scenarioFromManifests(file(k8s, { mode: 'Immediate', zones: [['a'], ['c', 'b']] })));
      const [req] = createVolumes(t);
      expect(zonesOf(req!.requisite)).toEqual(['a', 'b', 'c']);
      expect([...zonesOf(req!.preferred)].sort()).toEqual(['a', 'b', 'c']);
      const only = runScenario(scenarioFromManifests(file(k8s, { mode: 'Immediate', zones: [['c']] })));
      expect(zonesOf(createVolumes(only)[0]!.requisite)).toEqual(['c']);
      // the PV is in zone c, and the pod follows it there
      expect(pod(only).spec.nodeName).toBe('node-c');
    });

    it(`${k8s}: no node in an allowed zone: FailedScheduling, every node "didn't find available persistent volumes to bind", no CreateVolume`, () => {
      const t = runScenario(scenarioFromManifests(file(k8s, { mode: 'WaitForFirstConsumer', zones: [['x']] })));
      const failed = t.steps.find((s) => s.kind === 'event' && /FailedScheduling/.test(s.summary))!;
      expect(failed.summary).toContain("0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind.");
      expect(createVolumes(t)).toEqual([]);
      expect(pod(t).spec.nodeName).toBeUndefined();
    });
  }

  it('a malformed allowedTopologies is named with its line and path', () => {
    const bad = file('1.30', { mode: 'Immediate' }).replace('volumeBindingMode: Immediate', 'volumeBindingMode: Immediate\nallowedTopologies:\n  - matchLabelExpressions: [{ key: zone, values: b }]');
    expect(() => scenarioFromManifests(bad)).toThrow(/line 7, document 1 \(StorageClass zonal\), allowedTopologies\[0\]\.matchLabelExpressions\[0\]\.values: must be a list, not "b"/);
  });

  it('--strict-topology: the selected node\'s zone alone, in both lists', () => {
    const t = runScenario(scenarioFromManifests(file('1.30', { mode: 'WaitForFirstConsumer', zones: [['a', 'b']], strict: true })));
    const node = pod(t).spec.nodeName as string;
    const [req] = createVolumes(t);
    expect(zonesOf(req!.requisite)).toEqual([node.slice(-1)]);
    expect(zonesOf(req!.preferred)).toEqual([node.slice(-1)]);
  });
});

describe('GenerateAccessibilityRequirements with allowedTopologies (requests.ts accessibilityRequirements), alone', () => {
  const Z = 'topology.kubernetes.io/zone', R = 'topology.kubernetes.io/region';
  const driver = { topologyKeys: [Z] } as unknown as Parameters<typeof accessibilityRequirements>[0];
  const nodeIn = (name: string, zone: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { [Z]: zone } } }) as K8sObject;
  const nodes = [nodeIn('node-a', 'a'), nodeIn('node-b', 'b'), nodeIn('node-c', 'c')];
  const claim = (selected?: string) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default', ...(selected ? { annotations: { 'volume.kubernetes.io/selected-node': selected } } : {}) } }) as K8sObject;
  const zones = (terms: unknown) => (terms as Array<{ segments: Record<string, string> }>).map((t) => t.segments);

  it('flatten distributes each term\'s values over its ANDed expressions, and ORs the terms', () => {
    const allowed = [{ matchLabelExpressions: [{ key: Z, values: ['a', 'b'] }, { key: R, values: ['r1', 'r2'] }] }, { matchLabelExpressions: [{ key: Z, values: ['c'] }] }];
    const r = accessibilityRequirements(driver, claim(), nodes, false, allowed);
    // (deduplicated and sorted by topologyTerm.hash, "key#value" pairs: region before zone)
    expect(zones(r.requirement!.requisite)).toEqual([
      { [Z]: 'a', [R]: 'r1' }, { [Z]: 'b', [R]: 'r1' }, { [Z]: 'a', [R]: 'r2' }, { [Z]: 'b', [R]: 'r2' }, { [Z]: 'c' },
    ]);
  });

  it('a selected node outside the allowed terms: --strict-topology says so; otherwise its topology is not in requisite', () => {
    const allowed = [{ matchLabelExpressions: [{ key: Z, values: ['a', 'b'] }] }];
    expect(accessibilityRequirements(driver, claim('node-c'), nodes, true, allowed).error)
      .toBe(`selected node '"node-c"' topology 'map[${Z}:c]' is not in allowed topologies: [map[${Z}:a] map[${Z}:b]]`);
    expect(accessibilityRequirements(driver, claim('node-c'), nodes, false, allowed).error)
      .toBe(`topology map[${Z}:c] from selected node "node-c" is not in requisite: [map[${Z}:a] map[${Z}:b]]`);
    // within them: the selected node's term first
    expect(zones(accessibilityRequirements(driver, claim('node-b'), nodes, false, allowed).requirement!.preferred)).toEqual([{ [Z]: 'b' }, { [Z]: 'a' }]);
  });

  it('MatchTopologySelectorTerms: any term, every expression of it', () => {
    const terms = [{ matchLabelExpressions: [{ key: Z, values: ['a'] }, { key: R, values: ['r1'] }] }, { matchLabelExpressions: [{ key: Z, values: ['c'] }] }];
    expect(matchTopologySelectorTerms(terms, { [Z]: 'a', [R]: 'r1' })).toBe(true);
    expect(matchTopologySelectorTerms(terms, { [Z]: 'a', [R]: 'r2' })).toBe(false);
    expect(matchTopologySelectorTerms(terms, { [Z]: 'c' })).toBe(true);
    expect(matchTopologySelectorTerms(terms, { [R]: 'r1' })).toBe(false);
    expect(matchTopologySelectorTerms(undefined, {})).toBe(true);
  });
});
