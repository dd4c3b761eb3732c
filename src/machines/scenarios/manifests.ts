/**
 * scenarioFromManifests: multi-document Kubernetes YAML as users write it (StorageClass, CSIDriver,
 * PersistentVolumeClaim, PersistentVolume, Pod, StatefulSet, Node, VolumeSnapshotClass,
 * VolumeSnapshot), plus an optional `apiVersion: csi-flows/v1, kind: Scenario` document for what
 * manifests cannot say (the driver, the version, the nodes, the timeline, faults, how long to run).
 * Every mistake is one ScenarioError naming the document, the field and the line.
 *
 *   apiVersion: csi-flows/v1
 *   kind: Scenario
 *   metadata: { name: node-dies }
 *   spec:
 *     k8s: "1.30"
 *     driver: { attachRequired: true, stageUnstage: true }
 *     existing: all                     # or [Pod/web-0, PersistentVolumeClaim/data]: there before the story
 *     actions:
 *       - { at: 30s, shutdownNode: node-1 }
 *       - { at: 1m, delete: Pod/web-0, gracePeriodSeconds: 0 }
 *       - { at: 2m, create: Pod/web-1 }  # a document below, created then instead of at the start
 *       - { at: 3m, patch: Node/node-2, with: { spec: { unschedulable: true } } }
 *       - { at: 4m, restart: external-attacher }
 *     faults: [ "ControllerPublishVolume=DEADLINE_EXCEEDEDx2", { rpc: NodeStageVolume, code: INTERNAL, from: 1m } ]
 *     runFor: 10m
 */
import { isMap, isScalar, LineCounter, parseAllDocuments, type Document } from 'yaml';
import { CLUSTER_SCOPED, objectKey, type K8sObject, type Kind } from '../shared/k8s.ts';
import { ScenarioError } from './errors.ts';
import { compileScenario, type ScenarioSpec, type SpecSources, type StoryAction } from './spec.ts';
import { checkObject, pathText, SCENARIO_KINDS, type ObjectSource, type Path } from './validate.ts';

export interface ManifestOptions {
  /** the scenario's id when the Scenario document names none (default "custom") */
  id?: string;
  /** the text is capped: a scenario is a handful of documents, not a cluster dump (default 1 MiB) */
  maxBytes?: number;
}

const SCENARIO_API = 'csi-flows/v1';
const SPEC_FIELDS = ['title', 'summary', 'k8s', 'driver', 'nodes', 'existing', 'actions', 'faults', 'runFor', 'warmUp', 'start', 'timeZone', 'heartbeats', 'without', 'startLate', 'flags', 'apiServerUrl'];

interface Doc { doc: Document.Parsed; index: number; value: unknown; label: string }

/** Read manifests into a checked ScenarioSpec (plain data: runScenario runs it, JSON keeps it). */
export function scenarioFromManifests(yamlText: string, options: ManifestOptions = {}): ScenarioSpec {
  if (typeof yamlText !== 'string') throw new ScenarioError('scenarioFromManifests reads YAML text (a string)');
  const max = options.maxBytes ?? 1024 * 1024;
  if (yamlText.length > max) throw new ScenarioError(`the manifests are ${Math.round(yamlText.length / 1024)} KiB; a scenario holds at most ${Math.round(max / 1024)} KiB of YAML`);
  const lines = new LineCounter();
  const parsed = parseAllDocuments(yamlText, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, merge: true });
  const docs = Array.isArray(parsed) ? parsed : [];
  // a line past the text's end (an error at its end) is its last line that holds something
  const lastLine = yamlText.replace(/\s+$/, '').split('\n').length;
  const lineAt = (offset: number | undefined): number | undefined => (offset === undefined ? undefined : Math.min(lines.linePos(offset).line, lastLine));

  const list: Doc[] = [];
  docs.forEach((doc, i) => {
    const index = i + 1;
    const problem = doc.errors[0];
    if (problem) {
      throw new ScenarioError(`not valid YAML: ${problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`, {
        document: `document ${index}`, documentIndex: index,
        line: lineAt(problem.pos[0])!, column: lines.linePos(problem.pos[0]).col,
      });
    }
    const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
    if (value === null || value === undefined) return; // an empty document ("---" twice)
    const v = value as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
    const ns = typeof v.metadata?.namespace === 'string' ? `${v.metadata.namespace}/` : '';
    const name = typeof v.metadata?.name === 'string' ? ` ${ns}${v.metadata.name}` : '';
    list.push({ doc, index, value, label: `document ${index}${typeof v.kind === 'string' ? ` (${v.kind}${name})` : ''}` });
  });
  if (list.length === 0) throw new ScenarioError('no documents: paste Kubernetes manifests (StorageClass, PersistentVolumeClaim, Pod…) separated by ---');

  /** the line of a path in a document: the node there, or its nearest parent that exists */
  const lineIn = (d: Doc, path: Path): number | undefined => {
    for (let n = path.length; n >= 0; n--) {
      const node = d.doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === 'object' && node.range) {
        // for a key that exists, point at its key rather than its (possibly multi-line) value
        if (n > 0) {
          const parent = d.doc.getIn(path.slice(0, n - 1), true);
          if (isMap(parent)) {
            const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === path[n - 1]);
            const keyRange = pair && isScalar(pair.key) ? pair.key.range : undefined;
            if (keyRange) return lineAt(keyRange[0]);
          }
        }
        return lineAt(node.range[0]);
      }
    }
    return lineAt(d.doc.contents?.range?.[0]);
  };
  const source = (d: Doc): ObjectSource => ({ document: d.label, documentIndex: d.index, line: (p) => lineIn(d, p) });

  const scenarioDocs = list.filter((d) => (d.value as { apiVersion?: unknown }).apiVersion === SCENARIO_API || (d.value as { kind?: unknown }).kind === 'Scenario');
  if (scenarioDocs.length > 1) {
    throw new ScenarioError(`only one Scenario document per scenario (another is ${scenarioDocs[0]!.label})`, { document: scenarioDocs[1]!.label, documentIndex: scenarioDocs[1]!.index, ...lineOf(lineIn(scenarioDocs[1]!, [])) });
  }
  const sd = scenarioDocs[0];
  const objectDocs = list.filter((d) => d !== sd);

  // each object first on its own, so that its mistakes point into its document
  const objects = objectDocs.map((d) => {
    if (typeof d.value !== 'object' || Array.isArray(d.value)) {
      throw new ScenarioError(`a document is one Kubernetes object (a mapping with apiVersion, kind, metadata), not ${Array.isArray(d.value) ? 'a list' : JSON.stringify(d.value)}`, { document: d.label, documentIndex: d.index, ...lineOf(lineIn(d, [])) });
    }
    if ((d.value as { kind?: unknown }).kind === 'List') {
      throw new ScenarioError('a List is not read: give each item as its own document, separated by ---', { document: d.label, documentIndex: d.index, ...lineOf(lineIn(d, ['kind'])) });
    }
    return { d, o: checkObject(d.value, source(d)) };
  });
  const keyOfObj = (o: K8sObject) => objectKey(o.kind, o.metadata.namespace, o.metadata.name);

  // ------------------------------------------------------------------ the Scenario document
  const spec: ScenarioSpec = { ...(options.id ? { id: options.id } : {}) };
  let existingAll = false;
  const existingKeys = new Set<string>();
  const later = new Map<string, number>(); // object key -> action index that creates it
  const actionRefs: Array<string | undefined> = []; // action index -> the document it creates
  const specLine = (p: Path): number | undefined => (sd ? lineIn(sd, ['spec', ...p]) : undefined);
  const specFail = (p: Path, msg: string): never => {
    throw new ScenarioError(msg, { document: sd!.label, documentIndex: sd!.index, field: pathText(['spec', ...p]), ...lineOf(specLine(p)) });
  };
  if (sd) {
    const v = sd.value as Record<string, unknown>;
    const top = (p: Path, msg: string): never => { throw new ScenarioError(msg, { document: sd.label, documentIndex: sd.index, ...(p.length ? { field: pathText(p) } : {}), ...lineOf(lineIn(sd, p)) }); };
    if (v.apiVersion !== SCENARIO_API) top(['apiVersion'], `a Scenario document has apiVersion ${SCENARIO_API}, not ${JSON.stringify(v.apiVersion)}`);
    if (v.kind !== 'Scenario') top(['kind'], `a ${SCENARIO_API} document has kind Scenario, not ${JSON.stringify(v.kind)}`);
    for (const k of Object.keys(v)) if (!['apiVersion', 'kind', 'metadata', 'spec'].includes(k)) top([k], 'unknown field (a Scenario document has apiVersion, kind, metadata and spec)');
    const meta = v.metadata as Record<string, unknown> | undefined;
    if (meta !== undefined && (typeof meta !== 'object' || meta === null)) top(['metadata'], 'must be a mapping');
    if (meta?.name !== undefined) {
      if (typeof meta.name !== 'string' || !/^[a-z0-9][-a-z0-9_.]*$/i.test(meta.name)) top(['metadata', 'name'], `must be a short name (letters, digits, "-"), not ${JSON.stringify(meta.name)}`);
      spec.id = meta.name as string;
    }
    const s = (v.spec ?? {}) as Record<string, unknown>;
    if (typeof s !== 'object' || Array.isArray(s)) top(['spec'], 'must be a mapping');
    for (const k of Object.keys(s)) if (!SPEC_FIELDS.includes(k)) specFail([k], `unknown field (known: ${SPEC_FIELDS.join(', ')})`);
    // existing and actions name documents: read below; the other fields pass through as given
    for (const k of SPEC_FIELDS.filter((f) => f !== 'existing' && f !== 'actions')) {
      if (s[k] !== undefined) (spec as Record<string, unknown>)[k] = k === 'k8s' ? String(s[k]) : s[k];
    }
    // existing: all, or references to documents
    if (s.existing !== undefined) {
      if (s.existing === 'all' || s.existing === true) existingAll = true;
      else if (Array.isArray(s.existing)) {
        s.existing.forEach((ref, i) => {
          const k = resolveRef(ref, objects.map((x) => x.o), (msg) => specFail(['existing', i], msg));
          existingKeys.add(k);
        });
      } else specFail(['existing'], 'must be all, or a list of the documents that exist before the story (e.g. [Pod/web-0, PersistentVolumeClaim/data])');
    }
    if (s.actions !== undefined) {
      if (!Array.isArray(s.actions)) specFail(['actions'], 'must be a list of actions, each with at and what happens');
      spec.actions = (s.actions as unknown[]).map((raw, i) => readAction(raw, i, objects.map((x) => x.o), specFail, (key) => {
        if (later.has(key)) specFail(['actions', i, 'create'], `already created by action ${later.get(key)! + 1}`);
        later.set(key, i);
        actionRefs[i] = key;
      }));
    }
  }
  for (const k of later.keys()) if (existingKeys.has(k)) specFail(['existing'], `${k.replace(/\//, ' ').replace(/\//, '/')} cannot both exist before the story and be created by an action`);

  // objects: before the story, at its start, or later through a create action
  const existing: K8sObject[] = [];
  const atStart: K8sObject[] = [];
  const objectSources = { existing: [] as ObjectSource[], objects: [] as ObjectSource[] };
  for (const { d, o } of objects) {
    const k = keyOfObj(o);
    if (later.has(k)) continue;
    if (o.kind === 'Node' || existingAll || existingKeys.has(k)) { existing.push(o); objectSources.existing.push(source(d)); }
    else { atStart.push(o); objectSources.objects.push(source(d)); }
  }
  if (existing.length) spec.existing = existing;
  if (atStart.length) spec.objects = atStart;
  // a create action carries its document's object
  if (spec.actions) {
    spec.actions = spec.actions.map((a, i) => {
      const ref = actionRefs[i];
      if (!ref) return a;
      const { ref: _r, ...rest } = a as StoryAction & { ref?: string };
      return { ...rest, object: objects.find((x) => keyOfObj(x.o) === ref)!.o } as StoryAction;
    });
  }

  const sources: SpecSources = {
    object: (l, i) => objectSources[l][i],
    line: (p) => {
      // the actions list was rewritten from its YAML shorthand: point at the action's entry
      if (p[0] === 'actions' && typeof p[1] === 'number') {
        const ref = actionRefs[p[1]];
        if (ref && p[2] === 'object') {
          const hit = objects.find((x) => keyOfObj(x.o) === ref);
          if (hit) return lineIn(hit.d, p.slice(3));
        }
        const field = p[2];
        return specLine(['actions', p[1], ...(field !== undefined && field !== 'object' ? [SHORTHAND_FIELD[String(field)] ?? field] : [])]);
      }
      return specLine(p);
    },
    label: sd ? sd.label : 'the manifests',
  };
  // every cross-document check (claims, classes, nodes, the driver, the timeline), with lines
  compileScenario(spec, sources);
  return spec;
}

/** a canonical action field -> the shorthand key the YAML gives it */
const SHORTHAND_FIELD: Record<string, string> = { node: 'shutdownNode', component: 'restart', name: 'delete', kind: 'delete', patch: 'with', taint: 'with' };

const lineOf = (line: number | undefined): { line?: number } => (line === undefined ? {} : { line });

/** "Pod/web-0", "Pod/default/web-0" or {kind, name, namespace} → the key of a document of these manifests */
function resolveRef(ref: unknown, objects: K8sObject[], fail: (msg: string) => never): string {
  const parsed = parseRef(ref, fail);
  const hit = objects.find((o) => o.kind === parsed.kind && o.metadata.name === parsed.name && (CLUSTER_SCOPED.has(o.kind) || (o.metadata.namespace ?? 'default') === (parsed.namespace ?? 'default')));
  if (!hit) fail(`no document ${parsed.kind} ${parsed.namespace ? `${parsed.namespace}/` : ''}${parsed.name} in these manifests`);
  return objectKey(hit!.kind, hit!.metadata.namespace, hit!.metadata.name);
}

function parseRef(ref: unknown, fail: (msg: string) => never): { kind: Kind; namespace?: string; name: string } {
  if (ref && typeof ref === 'object' && !Array.isArray(ref)) {
    const r = ref as { kind?: unknown; name?: unknown; namespace?: unknown };
    if (typeof r.kind !== 'string' || typeof r.name !== 'string') fail('a reference names a kind and a name');
    return checkKind({ kind: r.kind as string, name: r.name as string, ...(typeof r.namespace === 'string' ? { namespace: r.namespace } : {}) }, fail);
  }
  if (typeof ref !== 'string') return fail(`a reference is Kind/name or Kind/namespace/name (e.g. Pod/web-0), not ${JSON.stringify(ref)}`);
  const parts = ref.split('/');
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => !p)) fail(`"${ref}" is not Kind/name or Kind/namespace/name (e.g. Pod/web-0)`);
  return checkKind(parts.length === 3 ? { kind: parts[0]!, namespace: parts[1]!, name: parts[2]! } : { kind: parts[0]!, name: parts[1]! }, fail);
}

function checkKind<T extends { kind: string }>(r: T, fail: (msg: string) => never): T & { kind: Kind } {
  const all = [...SCENARIO_KINDS, 'VolumeAttachment'];
  if (!all.includes(r.kind as Kind)) fail(`unknown kind "${r.kind}" (known: ${all.join(', ')})`);
  return r as T & { kind: Kind };
}

type Fail = (p: Path, msg: string) => never;

/** One timeline entry: the canonical {at, do, …} or the YAML shorthand {at, shutdownNode: node-1}. */
function readAction(raw: unknown, i: number, objects: K8sObject[], fail: Fail, created: (key: string) => void): StoryAction {
  const at0: Path = ['actions', i];
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail(at0, 'an action is a mapping: at, and what happens (e.g. {at: 30s, shutdownNode: node-1})');
  const a = raw as Record<string, unknown>;
  if (a.do !== undefined) return a as unknown as StoryAction; // canonical form, checked by compileScenario
  const verbs = ['create', 'delete', 'patch', 'shutdownNode', 'startNode', 'restart', 'taint'].filter((k) => a[k] !== undefined);
  if (verbs.length !== 1) {
    return fail(at0, verbs.length === 0
      ? 'says when (at) but not what happens: add one of create, delete, patch, shutdownNode, startNode, restart, taint'
      : `says ${verbs.join(' and ')}: one action per entry`);
  }
  const verb = verbs[0]!;
  const known = new Set(['at', 'summary', verb, ...(verb === 'delete' ? ['gracePeriodSeconds'] : []), ...(verb === 'patch' || verb === 'taint' ? ['with'] : [])]);
  for (const k of Object.keys(a)) if (!known.has(k)) fail([...at0, k], `unknown field for a ${verb} action (known: ${[...known].join(', ')})`);
  const common = { at: a.at as number | string, ...(a.summary !== undefined ? { summary: a.summary as string } : {}) };
  const refFail = (msg: string): never => fail([...at0, verb], msg);
  switch (verb) {
    case 'shutdownNode': case 'startNode':
      return { ...common, do: verb, node: a[verb] as string };
    case 'restart':
      return { ...common, do: 'restart', component: a.restart as string };
    case 'taint':
      if (a.with === undefined) fail([...at0, 'with'], 'is required: the taint, key[=value]:effect (e.g. with: node.kubernetes.io/out-of-service=nodeshutdown:NoExecute)');
      return { ...common, do: 'taint', node: a.taint as string, taint: a.with as string };
    case 'create': {
      if (a.create && typeof a.create === 'object' && (a.create as { apiVersion?: unknown }).apiVersion !== undefined) {
        return { ...common, do: 'create', object: a.create as K8sObject };
      }
      const key = resolveRef(a.create, objects, refFail);
      created(key);
      return { ...common, do: 'create', ref: key } as unknown as StoryAction;
    }
    case 'delete': {
      const r = parseRef(a.delete, refFail);
      return { ...common, do: 'delete', kind: r.kind, ...(r.namespace ? { namespace: r.namespace } : {}), name: r.name, ...(a.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: a.gracePeriodSeconds as number } : {}) };
    }
    case 'patch': {
      const r = parseRef(a.patch, refFail);
      if (a.with === undefined) fail([...at0, 'with'], 'is required: the JSON merge patch to apply (e.g. with: {spec: {unschedulable: true}})');
      return { ...common, do: 'patch', kind: r.kind, ...(r.namespace ? { namespace: r.namespace } : {}), name: r.name, patch: a.with as Record<string, unknown> };
    }
  }
  return fail(at0, 'unknown action');
}
