/**
 * What the log explainer knows, built from the same message definitions the machines print with
 * (the catalog) and from running every scenario: where each message appears in our flows and which
 * healthy line follows it. Build time only (it runs the simulation); browsers get the result as JSON.
 */
import { COMPONENTS } from '../registry.ts';
import { catalog } from '../catalog.ts';
import { legacyMessages } from './legacy.ts';
import { legacyMessagesZh } from './legacy.zh.ts';
import { formatCaptures, formatOf, formatRegex, type LogFormat, type MessageCatalog, type MessageDef, type ProfileId, type Stage } from '../shared/messages.ts';
import { EVENT_REASONS } from '../shared/eventReasons.ts';
import { isGenericGrpc } from '../shared/stage.ts';
import { runScenario } from '../scenarios/run.ts';
import { SCENARIOS } from '../scenarios/index.ts';
import type { Trace } from '../cluster/trace.ts';
import { cutText, type Knowledge, type KnownFormat, type KnownMessage, type StepRef } from './types.ts';
import { CATALOG_ZH } from '../catalog.zh.ts';
import { EVENT_REASONS_ZH } from '../shared/eventReasons.zh.ts';
import { summaryZh } from '../view/flow.zh.ts';

/** The chapter that tells each scenario's story (others are shown by their embed page). */
const CHAPTER_OF: Record<string, string> = {
  provision: 'provision', attach: 'attach', mount: 'mount', teardown: 'teardown', 'pod-migration': 'pod-migration',
  'multi-attach': 'multi-attach', 'no-attach': 'no-attach', 'ad-detach-backoff': 'ad-detach-backoff', 'wffc-provision': 'wffc-provision',
  'mount-failure': 'mount-failure', 'driver-not-registered': 'driver-not-registered', register: 'register', 'kubelet-restart': 'register', 'force-detach': 'node-failure', 'node-out-of-service': 'node-failure',
  'provision-retry': 'provision-failure', 'provision-failed': 'provision-failure', 'attach-failure': 'attach-failure', 'attacher-missing': 'attach-failure',
  'expand-online': 'expand', 'expand-offline': 'expand', 'block-volume': 'mount', fsgroup: 'mount', 'snapshot-restore': 'snapshot',
  'ceph-rbd-create': 'ceph-rbd', 'ceph-rbd-clone': 'ceph-rbd', 'ceph-rbd-snapshot': 'ceph-rbd', 'ceph-rbd-delete': 'ceph-rbd',
};

/** Where a reader sees a scenario's step on the site. */
export function stepUrl(scenario: string, k8s: ProfileId, step: number): string {
  const chapter = CHAPTER_OF[scenario];
  if (!chapter) return `/embed/${scenario}/?k8s=${k8s}&step=${step}`;
  const flow = chapter !== scenario ? `flow=${scenario}&` : '';
  return `/flows/${chapter}/?${flow}k8s=${k8s}&step=${step}#player`;
}

/** Healthy flows first: a message's reference step should show it in a flow that works. */
const PREFERRED = ['provision', 'attach', 'mount', 'teardown', 'wffc-provision', 'pod-migration', 'ceph-rbd-create', 'ceph-rbd-clone',
  'ceph-rbd-delete', 'multi-attach', 'force-detach', 'node-out-of-service', 'ad-detach-backoff', 'statefulset-rollout'];

/** catalog id prefix → component (machine) name; client-go's throttling line is printed by the sidecars, Events by the controllers */
const COMPONENT_OF_PREFIX: Record<string, string> = {
  ...Object.fromEntries(COMPONENTS.map((c) => [c.messagePrefix, c.descriptor.name])),
  clientGo: 'external-attacher', event: 'kube-controller-manager',
};

const PLACEHOLDER = /\{[A-Za-z0-9_]+(?::[qp])?\}/g;

/** KnownFormat.head: a printf template's text before its first argument, when there is an argument and 12 characters or more before it. */
export function templateHead(f: LogFormat): string | undefined {
  if (f.text === undefined) return undefined;
  const i = f.text.search(PLACEHOLDER);
  if (i < 0) return undefined;
  const head = cutText(f.text.slice(0, i));
  return head.length >= 12 ? head : undefined;
}

/** The longest literal run of a template (lower-cased), used to pick candidates before any regex runs. */
export function longestLiteral(f: LogFormat): string {
  const tpl = f.text ?? f.msg ?? '';
  return tpl.split(PLACEHOLDER).map((s) => s.trim()).sort((a, b) => b.length - a.length)[0]!.toLowerCase();
}

function compile(def: MessageDef): KnownFormat[] {
  const out: KnownFormat[] = [];
  // (one known format per line the message is printed at: the same file in the control plane's build and a sidecar's;
  // and one per wording a component prints instead, bySource)
  const variants = (f0: LogFormat): LogFormat[] => [
    ...[...new Set([f0.line, ...Object.values(f0.lineBySource ?? {})])].map((line) => ({ ...f0, line })),
    ...Object.values(f0.bySource ?? {}).map((own) => formatOf(f0, own)),
  ];
  for (const [profile, f0] of Object.entries(def.formats) as Array<[ProfileId, LogFormat]>) for (const f of variants(f0)) {
    out.push({
      profile, file: f.file, line: f.line, severity: f.severity ?? def.severity,
      pattern: formatRegex(f).source, literal: longestLiteral(f), ...(templateHead(f) ? { head: templateHead(f) } : {}),
      ...(() => { const c = formatCaptures(f); return { capture: c.source, names: c.names }; })(),
      // loose: more after the text (an older release's longer message), or the sentence's full stop an
      // older release ended it with (node-driver-registrar v1.0.2 main.go:123 "… discover driver name.")
      loose: (f.text !== undefined ? formatRegex(f) : formatRegex({ file: f.file, line: f.line, msg: f.msg ?? '' })).source.replace(/\\s\*\$$/, '') + '\\.?(?:\\s.*)?$',
    });
  }
  return out;
}

/** The steps a lookup finds for each version profile, keyed by profile (a profile with none left out). */
function perProfile(find: (k8s: ProfileId) => StepRef | undefined): Partial<Record<ProfileId, StepRef>> {
  return Object.fromEntries((['1.20', '1.30'] as const).flatMap((k8s) => {
    const r = find(k8s);
    return r ? [[k8s, r]] : [];
  }));
}

const TRACES = new Map<string, Trace>();

/**
 * The explainer's knowledge; `lang: 'zh'` gives the same knowledge with every text a reader sees in
 * Chinese (the zh catalogs, the Event reasons, the steps' summaries), for /zh/explain/.
 */
export function buildKnowledge(opts: { scenarios?: string[]; lang?: 'en' | 'zh' } = {}): Knowledge {
  // healthy flows first, then every other flow: each message's reference step is the first flow that prints it
  const ids = opts.scenarios ?? [...PREFERRED.filter((id) => SCENARIOS.some((s) => s.id === id)), ...SCENARIOS.map((s) => s.id).filter((id) => !PREFERRED.includes(id))];
  const zh = opts.lang === 'zh';
  const traces: Trace[] = [];
  for (const id of ids) {
    for (const k8s of ['1.30', '1.20'] as const) {
      const key = `${id}.${k8s}`;
      let t = TRACES.get(key);
      if (!t) TRACES.set(key, (t = runScenario(id, { k8s, recordObjects: false })));
      traces.push(t);
    }
  }
  const said = (st: Trace['steps'][number]): string => (zh ? summaryZh(st) ?? st.summary : st.summary);
  const at = (scenario: string, k8s: ProfileId, step: number): string => (zh ? `/zh${stepUrl(scenario, k8s, step)}` : stepUrl(scenario, k8s, step));

  const firstStep = new Map<string, StepRef>();
  const firstByProfile = new Map<string, StepRef>();
  // a message printed in more than one stage (the kubelet's failed operation: attach, mount, unmount work): its first step in each
  const firstByStage = new Map<string, StepRef>();
  const stagesOf = new Map<string, Set<Stage>>();
  const nextHealthy = new Map<string, KnownMessage['nextHealthy']>();
  const eventStep = new Map<string, StepRef>();
  for (const t of traces) {
    const logged = t.steps.filter((s) => s.log && s.msg);
    logged.forEach((st, k) => {
      const ref: StepRef = { scenario: t.scenario, k8s: t.k8s, step: st.i, url: at(t.scenario, t.k8s, st.i), summary: said(st) };
      if (!firstStep.has(st.msg!)) firstStep.set(st.msg!, ref);
      if (!firstByProfile.has(`${st.msg}@${t.k8s}`)) firstByProfile.set(`${st.msg}@${t.k8s}`, ref);
      if (st.stage) {
        (stagesOf.get(st.msg!) ?? stagesOf.set(st.msg!, new Set()).get(st.msg!)!).add(st.stage);
        if (!firstByStage.has(`${st.msg}@${st.stage}@${t.k8s}`)) firstByStage.set(`${st.msg}@${st.stage}@${t.k8s}`, ref);
      }
      if (st.msg === 'event.recorded') {
        const reason = /reason[=:] ?["']?(\w+)/.exec(st.log!)?.[1];
        if (reason && !eventStep.has(reason)) eventStep.set(reason, ref);
      }
      if (!nextHealthy.has(st.msg!) && st.severity === 'I') {
        // the next informative line of this flow printed by a different message: what a healthy system says next
        // (skipping the gRPC interceptors' echo lines: the next line that says what happened)
        const nxt = logged.slice(k + 1).find((n) => n.severity === 'I' && n.msg !== st.msg && n.msg !== 'event.recorded' && !isGenericGrpc(n.msg!));
        if (nxt) {
          const source = t.components.find((c) => c.instance === nxt.instance)?.source ?? catalog[nxt.msg!]!.source;
          nextHealthy.set(st.msg!, {
            id: nxt.msg!, component: nxt.component, source: source as KnownMessage['source'],
            step: { scenario: t.scenario, k8s: t.k8s, step: nxt.i, url: at(t.scenario, t.k8s, nxt.i), summary: said(nxt) },
          });
        }
      }
    });
  }

  // the catalog the cluster prints from, and the older sidecars' lines only the explainer knows (legacy.ts)
  const known: MessageCatalog = { ...catalog, ...legacyMessages };
  const messages: KnownMessage[] = Object.entries(known).map(([id, def]) => {
    const component = COMPONENT_OF_PREFIX[id.split('.')[0]!] ?? def.source;
    const step = firstStep.get(id);
    const nh = nextHealthy.get(id);
    const steps = perProfile((k8s) => firstByProfile.get(`${id}@${k8s}`));
    const stages = [...stagesOf.get(id) ?? []];
    const byStage = stages.length > 1 ? Object.fromEntries(stages.map((stage) => [stage, perProfile((k8s) => firstByStage.get(`${id}@${stage}@${k8s}`))])) : undefined;
    const text = zh ? { ...def, ...(CATALOG_ZH[id] ?? legacyMessagesZh[id]) } : def;
    return {
      id, source: def.source, component, stage: def.stage, severity: def.severity, summary: text.summary,
      ...(text.explain ? { explain: text.explain } : {}), ...(text.cause ? { cause: text.cause } : {}), ...(text.next ? { next: text.next } : {}),
      formats: compile(def), ...(step ? { step, steps } : {}), ...(byStage ? { byStage } : {}), ...(nh ? { nextHealthy: nh } : {}),
    };
  });

  const events = Object.entries(EVENT_REASONS).map(([reason, e]) => {
    const step = eventStep.get(reason);
    return { reason, ...e, ...(zh ? EVENT_REASONS_ZH[reason] : {}), ...(step ? { step } : {}) };
  });

  const chapters: Partial<Record<Stage, string>> = {
    provision: '/flows/provision/', attach: '/flows/attach/', mount: '/flows/mount/', unmount: '/flows/teardown/',
    detach: '/flows/teardown/', delete: '/flows/teardown/', register: '/components/node-driver-registrar/',
    resize: '/components/external-resizer/', snapshot: '/components/external-snapshotter/',
  };
  // the chapters and the component pages all have their Chinese pages under /zh/
  const localChapters = zh
    ? Object.fromEntries(Object.entries(chapters).map(([k, v]) => [k, `/zh${v}`])) as Partial<Record<Stage, string>>
    : chapters;
  return { version: 1, ...(zh ? { lang: 'zh' as const } : {}), messages, events, chapters: localChapters };
}
