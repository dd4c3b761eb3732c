/**
 * What if…: the player's panel for changing the flow (a CSI call that fails with a code the CSI spec
 * lists for it, a node that shuts down or a pod deleted at the current step) and the bar that says
 * what changed and where the new flow departs from the original. Loaded only when a reader asks for a
 * what-if (the button, or a URL carrying one), together with the code that re-runs the simulation in a
 * Web Worker, so a chapter ships none of it before that.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { rpcProse } from '../catalog/rpcs.ts';
import type { GrpcCode } from '../../machines/shared/csi.ts';
import type { FlowModel } from '../../machines/view/flow.ts';
import { CAPABILITIES, driverText, firstDeparture, isWhatIf, NO_WHAT_IF, OWNERSHIP_WALK_FAULTS, ownershipWalkFault, podsSetFsGroup, readWhatIf, stepAtTime, writeWhatIf, type DriverCapabilities, type WhatIf } from '../../machines/view/whatif.ts';
import { prewarm, simulate } from '../whatif/client.ts';
import { fill } from './text.ts';


type Lang = 'en' | 'zh';
export const langOfPage = (): Lang => (typeof document !== 'undefined' && document.documentElement.lang.startsWith('zh') ? 'zh' : 'en');

const WORDS = {
  en: {
    panel: 'What if…', close: 'Close',
    failTitle: 'A CSI call fails', rpc: 'Call', code: 'Code', times: 'How often',
    once: 'once', twice: 'twice', thrice: '3 times', always: 'every time',
    generic: 'any call', deadline: 'the call hangs until the caller’s deadline passes (a timeout)',
    internal: 'the driver failed for a reason of its own', unavailable: 'the driver cannot be reached (its socket or its backend)',
    nodeTitle: 'A node shuts down now', node: 'Node', podTitle: 'A pod is force-deleted now', pod: 'Pod',
    nodeDown: '{node} shuts down', podDeleted: 'pod {pod} is force-deleted',
    add: 'Add', apply: 'Run it', clear: 'Clear', none: 'Nothing changed yet.', changes: 'Changes',
    atStep: 'at step {n}', noRpc: 'This flow makes no CSI calls.',
    running: 'Simulating the changed flow…', whatIf: 'What if', departs: 'The flow departs from the original at {link}.', same: 'The flow is the same as the original.',
    stepN: 'step {n}', back: 'Back to the original', failed: 'The changed flow could not be simulated: {error}',
    tooLong: 'The simulation ran for more than {s} s and was stopped.', ran: 'Simulated in your browser in {ms} ms.',
    missed: 'Never hit the story: {faults}.', stop: '. ',
    capsTitle: 'The driver’s capabilities', driver: 'The driver',
    attachRequired: 'Attach required: its CSIDriver says attachRequired, so each volume gets a VolumeAttachment and ControllerPublishVolume before the node mounts it',
    stageUnstage: 'STAGE_UNSTAGE_VOLUME: the node plugin stages the volume at a global mount (NodeStageVolume) before NodePublishVolume',
    playground: 'More to change? Open this scenario as a file in the playground',
    walkTitle: 'The kubelet’s walk over the volume’s files (the pod’s fsGroup)', walk: 'The walk',
    EIO: 'fails: I/O error (EIO)', EACCES: 'fails: permission denied', '+45s': 'takes 45 s', '+3m': 'takes 3 min',
  },
  zh: {
    panel: '假如……', close: '关闭',
    failTitle: '一次 CSI 调用失败', rpc: '调用', code: '错误码', times: '次数',
    once: '一次', twice: '两次', thrice: '三次', always: '每次',
    generic: '任何调用', deadline: '调用一直挂起，直到调用方的截止时间过去（超时）',
    internal: '驱动因自身原因失败', unavailable: '无法连接驱动（其套接字或后端）',
    nodeTitle: '一个节点现在关机', node: '节点', podTitle: '现在强制删除一个 Pod', pod: 'Pod',
    nodeDown: '{node} 关机', podDeleted: '强制删除 Pod {pod}',
    add: '添加', apply: '运行', clear: '清除', none: '还没有改动。', changes: '改动',
    atStep: '在第 {n} 步', noRpc: '这个流程没有 CSI 调用。',
    running: '正在模拟改动后的流程……', whatIf: '假如', departs: '新流程从 {link} 起与原流程不同。', same: '新流程与原流程相同。',
    stepN: '第 {n} 步', back: '回到原流程', failed: '无法模拟改动后的流程：{error}',
    tooLong: '模拟运行超过 {s} 秒，已停止。', ran: '在你的浏览器中模拟，用时 {ms} 毫秒。',
    missed: '从未命中：{faults}。', stop: '。',
    capsTitle: '驱动的能力', driver: '驱动',
    attachRequired: '需要挂接：CSIDriver 的 attachRequired 为 true，每个卷在节点挂载之前先有 VolumeAttachment 和 ControllerPublishVolume',
    stageUnstage: 'STAGE_UNSTAGE_VOLUME：节点插件先把卷暂存到全局挂载点（NodeStageVolume），再 NodePublishVolume',
    playground: '还想改别的？在 Playground 中把这个场景作为文件打开',
    walkTitle: 'kubelet 对卷中文件的遍历（Pod 的 fsGroup）', walk: '遍历',
    EIO: '失败：I/O 错误（EIO）', EACCES: '失败：权限不足', '+45s': '耗时 45 秒', '+3m': '耗时 3 分钟',
  },
} as const;
type Words = (typeof WORDS)[Lang];

/** The result of a what-if run, as the player shows it. */
export interface Alternative {
  model: FlowModel;
  /** the first step that differs from the original (null: none does) */
  departs: number | null;
  notes: string[];
  ms: number;
}

/** Run the scenario (a built-in id, or the playground's file) with the what-if in the worker. Resolves with the new flow or a message. */
export async function runWhatIf(original: FlowModel, scenario: string | { yaml: string }, k8s: string, whatIf: WhatIf): Promise<Alternative | { error: string }> {
  const lang = langOfPage();
  const w = WORDS[lang];
  const r = await simulate({ scenario: typeof scenario === 'string' ? { id: scenario } : scenario, k8s, lang, whatIf, original: { steps: original.steps } }, { timeoutMs: 30_000, tooLong: w.tooLong });
  if (!r.ok) return { error: fill(w.failed, { error: r.message }) };
  const missed = r.faults.filter((f) => f.hits === 0 && whatIf.faults.includes(f.fault)).map((f) => f.fault);
  const notes = r.notes.filter((n) => !missed.some((f) => n.startsWith(f)));
  if (missed.length) notes.push(fill(w.missed, { faults: missed.join(', ') }));
  return { model: r.model, departs: firstDeparture(original, r.model), notes, ms: r.ms };
}

/**
 * What the original flow's driver can do, read from what the flow shows: a VolumeAttachment or a
 * ControllerPublishVolume means attach is required, a NodeStageVolume that the node plugin stages. A
 * flow that reaches neither (a provision) says nothing: both as drivers mostly have them.
 */
export function capabilitiesOf(model: Pick<FlowModel, 'steps' | 'objects'>): Required<DriverCapabilities> {
  const rpcs = new Set(model.steps.flatMap((s) => (s.rpc?.method ? [s.rpc.method.split('/').pop()!] : [])));
  const published = rpcs.has('NodePublishVolume');
  return {
    attachRequired: model.objects.some((o) => o.kind === 'VolumeAttachment') || rpcs.has('ControllerPublishVolume') || !published,
    stageUnstage: rpcs.has('NodeStageVolume') || rpcs.has('NodeUnstageVolume') || !published,
  };
}

/** A what-if in words: "ControllerPublishVolume fails with DEADLINE_EXCEEDED (twice); node-1 shuts down at step 12". */
export function describeWhatIf(w: WhatIf, words: Words): string[] {
  const caps = driverText(w.driver ?? {});
  return [
    ...(caps ? [`${words.driver}: ${caps}`] : []),
    ...w.faults,
    ...w.shutdown.map((s) => `${fill(words.nodeDown, { node: s.node })} (${fill(words.atStep, { n: s.step })})`),
    ...w.delete.map((d) => `${fill(words.podDeleted, { pod: d.pod })} (${fill(words.atStep, { n: d.step })})`),
  ];
}

/** The bar above the step while a what-if is shown: what changed, where the flow departs, the way back. */
export function WhatIfBar({ whatIf, alt, busy, error, onSeek, onBack }: {
  whatIf: WhatIf; alt: Alternative | null; busy: boolean; error: string | null;
  onSeek: (step: number) => void; onBack: () => void;
}) {
  const w = WORDS[langOfPage()];
  const [before, after] = w.departs.split('{link}');
  return (
    <div className="fp-whatif-bar" role="status" data-departs={alt?.departs ?? undefined}>
      <p>
        <strong>{w.whatIf}:</strong> <span translate="no">{describeWhatIf(whatIf, w).join('; ')}</span>{w.stop}
        {busy && <span>{w.running}</span>}
        {!busy && error && <span className="fp-whatif-error">{error}</span>}
        {!busy && alt && (alt.departs === null ? <span>{w.same}</span> : (
          <span>
            {before}
            <a href={`?step=${alt.departs}`} className="fp-whatif-departs" data-step={alt.departs}
              onClick={(e) => { if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return; e.preventDefault(); onSeek(alt.departs!); }}>
              {fill(w.stepN, { n: alt.departs })}
            </a>
            {after}
          </span>
        ))}
        {!busy && alt && <span className="fp-muted"> {fill(w.ran, { ms: alt.ms })}</span>}
        {!busy && alt && alt.notes.length > 0 && <span className="fp-muted"> {alt.notes.join(' ')}</span>}
      </p>
      <button type="button" className="fp-btn fp-btn-text" onClick={onBack}>{w.back}</button>
    </div>
  );
}

/** The codes the panel offers for an RPC: those the CSI spec gives a meaning for it, then the generic ones. */
function codesFor(rpc: string, lang: Lang, w: Words): Array<{ code: GrpcCode; when: string }> {
  const own = rpcProse(lang)[rpc]?.codes ?? [];
  const generic: Array<{ code: GrpcCode; when: string }> = [
    { code: 'DEADLINE_EXCEEDED', when: w.deadline }, { code: 'INTERNAL', when: w.internal }, { code: 'UNAVAILABLE', when: w.unavailable },
  ];
  return [...own, ...generic.filter((g) => !own.some((o) => o.code === g.code))];
}

/** The what-if panel: build a what-if from the current flow and step, then run it. */
export function WhatIfPanel({ model, step: shownStep, t, shownIsChanged, current, onApply, onClose, builtIn }: {
  /** the built-in scenario shown, whose file the playground opens (none: the playground's own) */
  builtIn?: string | undefined;
  /** the original flow (a what-if's steps count in it) */
  model: FlowModel;
  /** the step shown, at story time t; in the changed flow when shownIsChanged */
  step: number; t: number; shownIsChanged: boolean;
  current: WhatIf | null; onApply: (w: WhatIf) => void; onClose: () => void;
}) {
  // "now" is the same moment of the story in the original flow
  const step = shownIsChanged ? stepAtTime(model, t) : shownStep;
  const lang = langOfPage();
  const w = WORDS[lang];
  const id = useId();
  const rpcs = useMemo(() => [...new Set(model.steps.flatMap((s) => (s.kind === 'rpc' && s.rpc?.method ? [s.rpc.method.split('/').pop()!] : [])))], [model]);
  const nodes = useMemo(() => model.objects.filter((o) => o.kind === 'Node').map((o) => o.name), [model]);
  const pods = useMemo(() => model.objects.filter((o) => o.kind === 'Pod').map((o) => (o.namespace && o.namespace !== 'default' ? `${o.namespace}/${o.name}` : o.name)), [model]);
  const [draft, setDraft] = useState<WhatIf>(current ?? NO_WHAT_IF);
  const caps = useMemo(() => capabilitiesOf(model), [model]);
  // a capability is in the what-if only while it differs from the original's
  const setCap = (name: keyof DriverCapabilities, on: boolean): void => setDraft((d) => {
    const driver = { ...d.driver };
    if (on === caps[name]) delete driver[name]; else driver[name] = on;
    return { ...d, driver };
  });
  const [rpc, setRpc] = useState(rpcs[0] ?? '');
  const codes = codesFor(rpc, lang, w);
  const [code, setCode] = useState<string>(codes[0]?.code ?? 'INTERNAL');
  const [times, setTimes] = useState('x1');
  const [node, setNode] = useState(nodes[0] ?? '');
  const [pod, setPod] = useState(pods[0] ?? '');
  const walks = useMemo(() => podsSetFsGroup(model), [model]);
  const [walk, setWalk] = useState<(typeof OWNERSHIP_WALK_FAULTS)[number]>('EIO');
  const [walkTimes, setWalkTimes] = useState('x1');
  const meaning = codes.find((c) => c.code === code)?.when ?? '';
  const changes = describeWhatIf(draft, w);

  return (
    <div className="fp-whatif" role="dialog" aria-labelledby={`${id}-h`}>
      <div className="fp-whatif-head">
        <p className="fp-whatif-title" id={`${id}-h`}>{w.panel}</p>
        <button type="button" className="fp-linkbtn" onClick={onClose}>{w.close}</button>
      </div>
      <div className="fp-whatif-grid">
        <fieldset>
          <legend>{w.failTitle}</legend>
          {rpcs.length === 0 ? <p className="fp-muted">{w.noRpc}</p> : (
            <>
              <label>{w.rpc} <select value={rpc} onChange={(e) => { const r = e.currentTarget.value; setRpc(r); setCode(codesFor(r, lang, w)[0]?.code ?? 'INTERNAL'); }}>
                {rpcs.map((r) => <option key={r} value={r}>{r}</option>)}
              </select></label>
              <label>{w.code} <select value={code} onChange={(e) => setCode(e.currentTarget.value)}>
                {codes.map((c) => <option key={c.code} value={c.code}>{c.code}</option>)}
              </select></label>
              <label>{w.times} <select value={times} onChange={(e) => setTimes(e.currentTarget.value)}>
                <option value="x1">{w.once}</option><option value="x2">{w.twice}</option><option value="x3">{w.thrice}</option><option value="">{w.always}</option>
              </select></label>
              <p className="fp-whatif-meaning">{meaning}</p>
              <button type="button" className="fp-btn fp-btn-text" onClick={() => setDraft((d) => ({ ...d, faults: [...d.faults.filter((f) => !f.startsWith(`${rpc}=`)), `${rpc}=${code}${times}`] }))}>{w.add}</button>
            </>
          )}
        </fieldset>
        {walks && (
          <fieldset>
            <legend>{w.walkTitle}</legend>
            <label>{w.walk} <select value={walk} onChange={(e) => setWalk(e.currentTarget.value as typeof walk)}>
              {OWNERSHIP_WALK_FAULTS.map((f) => <option key={f} value={f}>{w[f]}</option>)}
            </select></label>
            {!walk.startsWith('+') && (
              <label>{w.times} <select value={walkTimes} onChange={(e) => setWalkTimes(e.currentTarget.value)}>
                <option value="x1">{w.once}</option><option value="x2">{w.twice}</option><option value="">{w.always}</option>
              </select></label>
            )}
            <button type="button" className="fp-btn fp-btn-text" onClick={() => setDraft((d) => ({ ...d, faults: [...d.faults.filter((f) => !f.startsWith('host:SetVolumeOwnership=')), ownershipWalkFault(walk, walkTimes)] }))}>{w.add}</button>
          </fieldset>
        )}
        {nodes.length > 0 && (
          <fieldset>
            <legend>{w.nodeTitle} ({fill(w.atStep, { n: step })})</legend>
            <label>{w.node} <select value={node} onChange={(e) => setNode(e.currentTarget.value)}>{nodes.map((n) => <option key={n} value={n}>{n}</option>)}</select></label>
            <button type="button" className="fp-btn fp-btn-text" onClick={() => setDraft((d) => ({ ...d, shutdown: [...d.shutdown.filter((s) => s.node !== node), { node, step }] }))}>{w.add}</button>
          </fieldset>
        )}
        {pods.length > 0 && (
          <fieldset>
            <legend>{w.podTitle} ({fill(w.atStep, { n: step })})</legend>
            <label>{w.pod} <select value={pod} onChange={(e) => setPod(e.currentTarget.value)}>{pods.map((p) => <option key={p} value={p}>{p}</option>)}</select></label>
            <button type="button" className="fp-btn fp-btn-text" onClick={() => setDraft((d) => ({ ...d, delete: [...d.delete.filter((x) => x.pod !== pod), { pod, step }] }))}>{w.add}</button>
          </fieldset>
        )}
        <fieldset className="fp-whatif-caps">
          <legend>{w.capsTitle}</legend>
          {CAPABILITIES.map((c) => (
            <label key={c} className="fp-whatif-cap">
              <input type="checkbox" name={c} checked={draft.driver[c] ?? caps[c]} onChange={(e) => setCap(c, e.currentTarget.checked)} />{' '}
              <span>{w[c]}</span>
            </label>
          ))}
        </fieldset>
      </div>
      <div className="fp-whatif-foot">
        <p><strong>{w.changes}:</strong> {changes.length ? <span translate="no">{changes.join('; ')}</span> : w.none}</p>
        <button type="button" className="fp-btn fp-btn-text" onClick={() => setDraft(NO_WHAT_IF)} disabled={!changes.length}>{w.clear}</button>
        <button type="button" className="fp-btn fp-btn-text fp-whatif-run" onClick={() => onApply(draft)} disabled={!changes.length}>{w.apply}</button>
      </div>
      {builtIn && <p className="fp-whatif-more"><a href={`${lang === 'zh' ? '/zh' : ''}/playground/?chapter=${encodeURIComponent(builtIn)}`}>{w.playground}</a></p>}
    </div>
  );
}

/**
 * The csi-flows:whatif message of an embedding page as a what-if: { faults: [...], shutdown?: [{ node,
 * step }], delete?: [{ pod, step }], driver?: { attachRequired?: boolean, stageUnstage?: boolean } };
 * what is not of that shape is left out.
 */
export function whatIfFromMessage(d: unknown): WhatIf {
  const m = (d && typeof d === 'object' ? d : {}) as { faults?: unknown; shutdown?: unknown; delete?: unknown; driver?: unknown };
  const driver: DriverCapabilities = {};
  if (m.driver && typeof m.driver === 'object') {
    for (const c of CAPABILITIES) {
      const v = (m.driver as Record<string, unknown>)[c];
      if (typeof v === 'boolean') driver[c] = v;
    }
  }
  const list = (x: unknown): unknown[] => (Array.isArray(x) ? x.slice(0, 20) : []);
  const atStep = (key: 'node' | 'pod') => (v: unknown): boolean => !!v && typeof v === 'object'
    && typeof (v as Record<string, unknown>)[key] === 'string' && Number.isInteger((v as Record<string, unknown>).step) && ((v as { step: number }).step) >= 1;
  return {
    faults: list(m.faults).filter((v): v is string => typeof v === 'string' && v.length < 200),
    shutdown: list(m.shutdown).filter(atStep('node')).map((v) => ({ node: (v as { node: string }).node, step: (v as { step: number }).step })),
    delete: list(m.delete).filter(atStep('pod')).map((v) => ({ pod: (v as { pod: string }).pod, step: (v as { step: number }).step })),
    driver,
  };
}

/**
 * A player's what-if: reads it from the URL (the page's first player) or from a csi-flows:whatif
 * message, re-runs the scenario with it in the worker, hands the changed flow to the player (onFlow,
 * with the step to open: the same moment of the story) and shows the panel and the bar. The player
 * loads this component only when a what-if is asked for.
 */
export default function WhatIfBox({ base, scenario, k8s, step, primary, panelOpen, message, onPanel, onNotice, onSeek, onFlow }: {
  /** the original flow, and what it ran: a built-in scenario's id or a scenario file (the playground) */
  base: FlowModel; scenario: string | { yaml: string }; k8s: string;
  /** the step shown (in the changed flow while one is shown) */
  step: number; primary: boolean; panelOpen: boolean;
  /** the latest csi-flows:whatif message (a new object for each) */
  message: unknown;
  onPanel: (open: boolean) => void; onNotice: (text: string) => void; onSeek: (step: number) => void;
  /** show this flow (null: the original), opening on step `at` */
  onFlow: (model: FlowModel | null, departs: number | null, at: number) => void;
}) {
  const [whatIf, setWhatIf] = useState<WhatIf | null>(null);
  const [alt, setAlt] = useState<Alternative | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // the story time of the step shown, whichever flow is shown
  const shown = alt?.model ?? base;
  const tNow = useRef(0);
  tNow.current = shown.steps[step - 1]?.t ?? 0;

  const apply = (w: WhatIf | null): void => {
    onPanel(false);
    if (!isWhatIf(w)) {
      if (whatIf) onFlow(null, null, stepAtTime(base, tNow.current));
      setWhatIf(null); setAlt(null); setError(null);
    } else {
      setWhatIf(w);
    }
    if (primary) {
      const search = writeWhatIf(window.location.search, isWhatIf(w) ? w : NO_WHAT_IF);
      window.history.replaceState(window.history.state, '', window.location.pathname + search + window.location.hash);
    }
  };

  // while the reader chooses, the worker loads and runs this flow, the last time with a what-if the
  // panel offers first (its first call fails once), so the reader's first one finds the code warm
  // (client.ts prewarm)
  useEffect(() => {
    if (!panelOpen) return;
    const firstRpc = base.steps.find((s) => s.kind === 'rpc' && s.rpc?.method)?.rpc!.method.split('/').pop();
    const practice = firstRpc ? { whatIf: { ...NO_WHAT_IF, faults: [`${firstRpc}=INTERNALx1`] }, original: { steps: base.steps } } : {};
    prewarm({ scenario: typeof scenario === 'string' ? { id: scenario } : scenario, k8s, lang: langOfPage(), ...practice });
  }, [panelOpen, scenario, k8s, base]);

  // the URL's what-if, once
  useEffect(() => {
    if (!primary) return;
    const { whatIf: w, problems } = readWhatIf(window.location.search);
    if (problems.length) onNotice(problems.join(' '));
    if (isWhatIf(w)) setWhatIf(w);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // an embedding page's message
  useEffect(() => {
    if (message) apply(whatIfFromMessage(message));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [message]);

  // run it (again when the original changes: another version)
  useEffect(() => {
    if (!whatIf) return;
    let stale = false;
    setBusy(true);
    setError(null);
    void runWhatIf(base, scenario, k8s, whatIf).then((r) => {
      if (stale) return;
      setBusy(false);
      if ('error' in r) { setError(r.error); if (alt) onFlow(null, null, stepAtTime(base, tNow.current)); setAlt(null); return; }
      setAlt(r);
      onFlow(r.model, r.departs, stepAtTime(r.model, tNow.current));
    });
    return () => { stale = true; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [whatIf, base, scenario, k8s]);

  return (
    <>
      {panelOpen && (
        <WhatIfPanel model={base} step={step} t={tNow.current} shownIsChanged={!!alt} current={whatIf} onApply={apply} onClose={() => onPanel(false)} builtIn={typeof scenario === 'string' ? scenario : undefined} />
      )}
      {whatIf && <WhatIfBar whatIf={whatIf} alt={alt} busy={busy} error={error} onSeek={onSeek} onBack={() => apply(null)} />}
    </>
  );
}
