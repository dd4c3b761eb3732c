/**
 * What-if on a player: a reader's change to a scenario (a CSI call that fails, a node that dies or a
 * pod deleted at a step) in the URL's words, and where the re-simulated flow departs from the
 * original. Pure and browser-safe: the player reads and writes URLs with it, the worker turns it into
 * run options, the tests check both.
 *
 * URL syntax (the CLI's fault syntax, so a trainer can copy either way):
 *   ?fault=ControllerPublishVolume=DEADLINE_EXCEEDEDx2   (repeatable; every form `csi-flows trace --fault` takes)
 *   ?shutdown=<node>@<step>                               (the node goes down when the original flow is at that step)
 *   ?delete=<Pod name or namespace/name>@<step>           (the pod is deleted then, grace period 0)
 *   ?driver=attachRequired=false                          (the driver's capabilities; also stageUnstage=…,
 *                                                          comma-separated or repeated: `csi-flows trace --driver`)
 */
import { parseFaultText } from '../cluster/faults.ts';
import type { FlowModel, FlowStep } from './flow.ts';

export { stepAtTime } from './flow.ts';
import { CAPABILITIES, type DriverCapabilities } from '../drivers/types.ts';

export { CAPABILITIES, type DriverCapabilities };

export interface WhatIf {
  /** faults in the CLI's text form */
  faults: string[];
  /** nodes shut down when the original flow reaches a step */
  shutdown: Array<{ node: string; step: number }>;
  /** pods deleted (grace period 0) when the original flow reaches a step */
  delete: Array<{ pod: string; step: number }>;
  /** the driver's capabilities changed for the run (RunOptions.driver); {} when as the scenario has them */
  driver: DriverCapabilities;
}

/** The URL parameters a what-if is written in. */
export const WHAT_IF_PARAMS = ['fault', 'shutdown', 'delete', 'driver'] as const;

export const NO_WHAT_IF: WhatIf = { faults: [], shutdown: [], delete: [], driver: {} };

export const isWhatIf = (w: WhatIf | null | undefined): w is WhatIf =>
  !!w && (w.faults.length > 0 || w.shutdown.length > 0 || w.delete.length > 0 || Object.keys(w.driver ?? {}).length > 0);

/**
 * "attachRequired=false,stageUnstage=true" (the CLI's --driver and the URL's ?driver) as capabilities;
 * throws an Error naming the part it cannot read.
 */
export function parseDriverText(text: string): DriverCapabilities {
  const out: DriverCapabilities = {};
  for (const part of text.split(',').map((x) => x.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]+)=(true|false)$/.exec(part);
    if (!m) throw new Error(`"${part}": expected <capability>=true|false, e.g. attachRequired=false`);
    const name = CAPABILITIES.find((c) => c.toLowerCase() === m[1]!.toLowerCase());
    if (!name) throw new Error(`"${m[1]}": unknown capability (known: ${CAPABILITIES.join(', ')})`);
    out[name] = m[2] === 'true';
  }
  return out;
}

/** Capabilities in the CLI's and URL's words: "attachRequired=false,stageUnstage=false". */
export const driverText = (d: DriverCapabilities): string =>
  CAPABILITIES.filter((c) => d[c] !== undefined).map((c) => `${c}=${String(d[c])}`).join(',');

const AT_STEP = /^(.+)@([1-9][0-9]{0,6})$/;

/**
 * The what-if a URL asks for, and a message per part that cannot be read (the part is then left out,
 * never guessed). A fault's syntax is checked here; whether its RPC is called is for the run to say.
 */
export function readWhatIf(search: string): { whatIf: WhatIf; problems: string[] } {
  const p = new URLSearchParams(search);
  const problems: string[] = [];
  const faults: string[] = [];
  for (const raw of p.getAll('fault')) {
    const text = raw.trim();
    try {
      parseFaultText(text);
      faults.push(text);
    } catch (e) {
      problems.push(`fault "${text.slice(0, 80)}": ${(e as Error).message}`);
    }
  }
  const atStep = (name: 'shutdown' | 'delete'): Array<{ what: string; step: number }> => p.getAll(name).flatMap((raw) => {
    const m = AT_STEP.exec(raw.trim());
    if (!m) { problems.push(`${name}="${raw.slice(0, 80)}": expected ${name === 'shutdown' ? '<node>' : '<pod>'}@<step>, e.g. ${name === 'shutdown' ? 'node-1@12' : 'web-0@12'}`); return []; }
    return [{ what: m[1]!, step: Number(m[2]) }];
  });
  let driver: DriverCapabilities = {};
  for (const raw of p.getAll('driver')) {
    try {
      driver = { ...driver, ...parseDriverText(raw) };
    } catch (e) {
      problems.push(`driver="${raw.slice(0, 80)}": ${(e as Error).message}`);
    }
  }
  return {
    whatIf: {
      faults,
      shutdown: atStep('shutdown').map((x) => ({ node: x.what, step: x.step })),
      delete: atStep('delete').map((x) => ({ pod: x.what, step: x.step })),
      driver,
    },
    problems,
  };
}

/** The URL's query with this what-if in it (other parameters kept; `step` left to the caller). */
export function writeWhatIf(search: string, w: WhatIf): string {
  const p = new URLSearchParams(search);
  for (const k of WHAT_IF_PARAMS) p.delete(k);
  for (const f of w.faults) p.append('fault', f);
  for (const s of w.shutdown) p.append('shutdown', `${s.node}@${s.step}`);
  for (const d of w.delete) p.append('delete', `${d.pod}@${d.step}`);
  const caps = driverText(w.driver ?? {});
  if (caps) p.append('driver', caps);
  const q = p.toString();
  return q ? `?${q}` : '';
}

/** The step summaries of the reader's own actions, in the page's language. */
const SAYS = {
  en: {
    shutdown: (node: string, step: number) => `What if: ${node} shuts down (at step ${step} of the original flow).`,
    delete: (pod: string, step: number) => `What if: you force-delete pod ${pod} (at step ${step} of the original flow).`,
  },
  zh: {
    shutdown: (node: string, step: number) => `假如：${node} 关机（在原流程的第 ${step} 步）。`,
    delete: (pod: string, step: number) => `假如：你强制删除 Pod ${pod}（在原流程的第 ${step} 步）。`,
  },
} as const;

/** What a run action of the what-if needs: the story time of a step of the original flow. */
export function runActionsOf(w: WhatIf, original: Pick<FlowModel, 'steps'>, lang: 'en' | 'zh' = 'en'): { actions: Array<Record<string, unknown>>; problems: string[] } {
  const says = SAYS[lang];
  const problems: string[] = [];
  const timeOf = (step: number, what: string): number | null => {
    const s = original.steps[step - 1];
    if (!s) { problems.push(`${what}: the flow has ${original.steps.length} steps, not ${step}`); return null; }
    return s.t;
  };
  const actions: Array<Record<string, unknown>> = [];
  for (const x of w.shutdown) {
    const at = timeOf(x.step, `shutdown=${x.node}@${x.step}`);
    if (at !== null) actions.push({ at, do: 'shutdownNode', node: x.node, summary: says.shutdown(x.node, x.step) });
  }
  for (const x of w.delete) {
    const at = timeOf(x.step, `delete=${x.pod}@${x.step}`);
    if (at === null) continue;
    const [namespace, name] = x.pod.includes('/') ? x.pod.split('/', 2) : ['default', x.pod];
    actions.push({ at, do: 'delete', kind: 'Pod', namespace, name, gracePeriodSeconds: 0, summary: says.delete(name!, x.step) });
  }
  return { actions, problems };
}

/** Whether two steps tell the same thing (the same component did the same, with the same line). */
const sameStep = (a: FlowStep, b: FlowStep): boolean =>
  a.component === b.component && a.host === b.host && a.kind === b.kind && a.summary === b.summary && (a.log ?? null) === (b.log ?? null);

/**
 * The first step (1-based) of `changed` that differs from `original`, or null when the two tell the
 * same story. A run that is the same but shorter or longer departs where the shorter one ends.
 */
export function firstDeparture(original: Pick<FlowModel, 'steps'>, changed: Pick<FlowModel, 'steps'>): number | null {
  const n = Math.min(original.steps.length, changed.steps.length);
  for (let i = 0; i < n; i++) if (!sameStep(original.steps[i]!, changed.steps[i]!)) return i + 1;
  return original.steps.length === changed.steps.length ? null : n + 1;
}

/**
 * Whether a flow's pods set an fsGroup, read from their YAML: the kubelet then walks their volumes' files after
 * NodePublishVolume (SetVolumeOwnership), which a host fault (host:SetVolumeOwnership=…) makes slow or fail.
 */
export const podsSetFsGroup = (model: Pick<FlowModel, 'objects'>): boolean =>
  model.objects.some((o) => o.kind === 'Pod' && o.versions.some((v) => v.yaml !== null && /^\s*fsGroup: \d+\s*$/m.test(v.yaml)));

/** What the what-if panel offers for that walk, as host faults in the CLI's words. */
export const OWNERSHIP_WALK_FAULTS = ['EIO', 'EACCES', '+45s', '+3m'] as const;
export const ownershipWalkFault = (what: (typeof OWNERSHIP_WALK_FAULTS)[number], times: string): string =>
  what.startsWith('+') ? `host:SetVolumeOwnership=${what}` : `host:SetVolumeOwnership=${what}${times}`;

