/**
 * scenarioFile: a built-in scenario written as a scenario file (Kubernetes manifests plus a
 * csi-flows/v1 Scenario document), the form teams write their own in. `csi-flows trace --file` and
 * the playground run it to the same trace as the built-in scenario (test/scenarios/scenarioFile.test.ts
 * checks it for every scenario and profile), so a chapter's story is a starting point for one's own.
 *
 * The file says in its leading comment what, if anything, it cannot carry over (a chapter that starts
 * its trace in the middle of the story).
 */
import { Document, isMap, isSeq, stringify, type YAMLMap } from 'yaml';
import { faultToText, formatDuration, parseFaultText, type Fault } from '../cluster/faults.ts';
import type { UserAction } from '../cluster/cluster.ts';
import { catalog } from '../catalog.ts';
import { DRIVERS } from '../drivers/index.ts';
import type { ProfileId } from '../shared/messages.ts';
import { CLUSTER_SCOPED, keyOf, type K8sObject, type Kind } from '../shared/k8s.ts';
import { ScenarioError } from './errors.ts';
import { getScenario } from './run.ts';
import { COMPONENT_FLAGS, type ScenarioNode } from './spec.ts';
import { defaultProvisionerIdentity } from './topology.ts';
import type { ScenarioData } from './types.ts';

export interface ScenarioFileOptions {
  /** the version profile the file names (default: the scenario's, else 1.30) */
  k8s?: ProfileId;
  /** for scenarios that take replicas */
  replicas?: number;
}

export interface ScenarioFile {
  /** the file's text */
  yaml: string;
  /** what the file cannot say, one sentence each (also in its leading comment); empty: the same trace */
  differences: string[];
}

/** Wrap prose into "# " comment lines of at most `width` characters. */
function comment(text: string, width = 100): string[] {
  const out: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length + 1 + word.length > width && line !== '#') { out.push(line); line = '#'; }
    line += ` ${word}`;
  }
  if (line !== '#') out.push(line);
  return out;
}

const refOf = (kind: Kind, namespace: string | undefined, name: string): string =>
  `${kind}/${namespace && namespace !== 'default' && !CLUSTER_SCOPED.has(kind) ? `${namespace}/` : ''}${name}`;

/** A fault in the CLI's text form when that form says all of it (it reads back the same), else as an object. */
function faultEntry(f: Fault): Fault | string {
  try {
    const text = faultToText(f);
    const back = parseFaultText(text) as unknown as Record<string, unknown>;
    const given = f as unknown as Record<string, unknown>;
    const keys = new Set([...Object.keys(back), ...Object.keys(given)]);
    keys.delete('type');
    if ([...keys].every((k) => JSON.stringify(back[k]) === JSON.stringify(given[k]))) return text;
  } catch { /* the text form cannot say it */ }
  return f;
}

/** A built-in scenario as a scenario file. Throws a ScenarioError for an unknown id. */
export function scenarioFile(id: string, options: ScenarioFileOptions = {}): ScenarioFile {
  const sc = getScenario(id);
  const k8s = options.k8s ?? sc.k8s ?? '1.30';
  if (options.replicas !== undefined && !sc.takesReplicas) throw new ScenarioError(`scenario "${id}" does not take replicas`);
  const d: ScenarioData = sc.build({ k8s, seed: 1, replicas: options.replicas ?? sc.defaultReplicas ?? 1 });
  // the story starts where the trace does: the warm-up is everything before
  const W = d.recordFrom ?? 0;
  const storyTime = (us: number): string => formatDuration((us - W) / 1000);
  const differences: string[] = [];

  const driverId = typeof d.driver === 'string' ? d.driver : Object.entries(DRIVERS).find(([, p]) => p === d.driver)?.[0];
  if (!driverId) throw new ScenarioError(`scenario "${id}" uses a driver profile of its own, which a scenario file cannot name`);
  const driverName = DRIVERS[driverId]!.name;
  if (d.recordFromMessage) {
    const def = catalog[d.recordFromMessage.msg];
    const format = def ? (def.formats[k8s] ?? Object.values(def.formats)[0]) as { text?: string; msg?: string } | undefined : undefined;
    const text = (format?.text ?? format?.msg ?? d.recordFromMessage.msg).split(' {')[0];
    differences.push(`The chapter's trace starts in the middle of the story, at the first "${text}" line of ${def?.source ?? 'a component'}; run from this file, the trace starts at the story's start and shows what leads there first.`);
  }
  if (d.provisionerIdentity !== undefined && d.provisionerIdentity !== defaultProvisionerIdentity(driverName)) {
    differences.push(`The chapter's external-provisioner has the identity ${d.provisionerIdentity}, which a file cannot set.`);
  }
  if (d.backend?.some((b) => b.publishedTo?.length || b.volumeContext)) {
    differences.push('The chapter starts with volumes already published in the storage backend, which a file cannot say.');
  }

  // sidecar flags: the component inputs and rate limiters a file can set
  const flags: Record<string, Record<string, number | boolean>> = {};
  for (const [component, inputs] of Object.entries(d.componentInputs ?? {})) {
    for (const [input, value] of Object.entries(inputs)) {
      const flag = Object.entries(COMPONENT_FLAGS[component] ?? {}).find(([, f]) => 'input' in f.sets && f.sets.input === input)?.[0];
      if (flag) (flags[component] ??= {})[flag] = value as number | boolean;
      else differences.push(`The chapter gives ${component} the input ${input}: ${JSON.stringify(value)}, which is no flag a file can set.`);
    }
  }
  for (const [component, c] of Object.entries(d.apiClients ?? {})) {
    if (!COMPONENT_FLAGS[component]?.['kube-api-qps']) { differences.push(`The chapter rate-limits ${component}'s API client, which a file cannot.`); continue; }
    Object.assign((flags[component] ??= {}), { 'kube-api-qps': c.qps, 'kube-api-burst': c.burst });
  }

  // documents: what exists before the story, then what actions create; an object created again
  // after it existed (a re-created StatefulSet) goes inline in its action
  const docs: K8sObject[] = d.objects.filter((o) => o.kind !== 'Node');
  const docKeys = new Set(docs.map(keyOf));
  const existing = docs.map((o) => refOf(o.kind, o.metadata.namespace, o.metadata.name));
  const actions = d.actions.map((a: UserAction) => {
    const at = storyTime(a.at);
    const summary = a.summary !== undefined ? { summary: a.summary } : {};
    switch (a.do) {
      case 'create': {
        const k = keyOf(a.object);
        if (docKeys.has(k)) return { at, create: a.object, ...summary };
        docKeys.add(k);
        docs.push(a.object);
        return { at, create: refOf(a.object.kind, a.object.metadata.namespace, a.object.metadata.name), ...summary };
      }
      case 'delete':
        return { at, delete: refOf(a.kind, a.namespace, a.name), ...(a.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: a.gracePeriodSeconds } : {}), ...summary };
      case 'patch':
        return { at, patch: refOf(a.kind, a.namespace, a.name), with: a.patch, ...summary };
      case 'shutdownNode': case 'startNode':
        return { at, [a.do]: a.node, ...summary };
      case 'restart':
        return { at, restart: a.component, ...summary };
      case 'taint':
        return { at, taint: a.node, with: a.taint, ...summary };
      default:
        throw new ScenarioError(`scenario "${id}" has an action a file cannot say: ${JSON.stringify(a)}`);
    }
  });

  const nodes: ScenarioNode[] = d.nodes.map(({ kubeletUptimeUs, nodeStatusOffsetUs, ...n }) => ({
    ...n, ...(kubeletUptimeUs !== undefined ? { kubeletUptime: formatDuration(kubeletUptimeUs / 1000) } : {}),
    ...(nodeStatusOffsetUs !== undefined ? { nodeStatusOffset: formatDuration(nodeStatusOffsetUs / 1000) } : {}),
  }));
  const faults: Array<Fault | string> = [
    ...(d.csiFaults ?? []).map((f) => faultEntry(f)),
    ...(d.apiFaults ?? []).map((f) => faultEntry({ type: 'api', ...f })),
    ...(d.informerDelays ?? []).map((f) => faultEntry({ type: 'informer', ...f })),
    ...(d.hostFaults ?? []).map((f) => faultEntry({ type: 'host', ...f })),
  ];
  const startLate = d.startAt ? Object.fromEntries(Object.entries(d.startAt).map(([k, us]) => [k, storyTime(us)])) : undefined;
  const spec = {
    title: sc.title,
    k8s,
    driver: driverId,
    nodes,
    // "all": every document an action does not create
    ...(existing.length ? { existing: 'all' } : {}),
    ...(actions.length ? { actions } : {}),
    ...(faults.length ? { faults } : {}),
    runFor: storyTime(d.runFor),
    warmUp: formatDuration(W / 1000),
    start: d.start,
    ...(d.hostTz.offsetMin !== 0 || d.hostTz.zone !== 'UTC' ? { timeZone: d.hostTz } : {}),
    ...(d.heartbeats === false ? { heartbeats: false } : {}),
    ...(d.without?.length ? { without: d.without } : {}),
    ...(startLate ? { startLate } : {}),
    ...(Object.keys(flags).length ? { flags } : {}),
    ...(d.apiServerUrl ? { apiServerUrl: d.apiServerUrl } : {}),
  };
  const scenarioDoc = { apiVersion: 'csi-flows/v1', kind: 'Scenario', metadata: { name: id }, spec };

  const head = [
    ...comment(`${sc.title}.`),
    ...comment(sc.summary),
    '#',
    ...comment(`The built-in scenario "${id}" as a scenario file: run it with npx csi-flows trace --file ${id}.yaml, change it, make it yours.`),
    ...differences.flatMap((x) => ['#', ...comment(x)]),
  ];
  // the timeline and the nodes one line each, as a person writes them ({ at: 1s, create: Pod/web-0 })
  const scenarioYaml = new Document(scenarioDoc, { keepUndefined: false });
  for (const path of [['spec', 'actions'], ['spec', 'nodes']]) {
    const seq = scenarioYaml.getIn(path, true);
    if (!isSeq(seq)) continue;
    for (const item of seq.items) if (isMap(item) && !item.items.some((p) => isMap(p.value) && (p.value as YAMLMap).items.some((q) => isMap(q.value)))) item.flow = true;
  }
  const body = [...docs.map((o) => stringify(o, { lineWidth: 0 })), scenarioYaml.toString({ lineWidth: 0 })].join('---\n');
  return { yaml: `${head.join('\n')}\n${body}`, differences };
}
