/**
 * The flow player island: steps through a scenario's flow model (fetched as JSON) with the sequence
 * diagram, the merged klog, the object inspector and the components' state of world beside the step.
 *
 * Thin by design: which step is shown, playing and speed live in the pure playerMachine
 * (src/machines/view/player.machine.ts); this file connects it to the page: the data, the URL
 * (?step, ?k8s, ?flow), the keyboard, a timer that sends ticks, and window.parent (postMessage API).
 * Only the browser-safe flow.ts is imported from the simulation.
 */
import { useMachine } from '@xstate/react';
import { lazy, startTransition, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FlowModel } from '../../machines/view/flow.ts';
import { causeText, formatOffset, stepAtTime } from '../../machines/view/flow.ts';
import { periodMs, playerMachine, SPEEDS, type StepRequest } from '../../machines/view/player.machine.ts';
import type { PlayerFlow, PlayerProps } from '../flows/data.ts';
import { Diagram } from './Diagram.tsx';
import { Inspector } from './Inspector.tsx';
import { LogPane } from './LogPane.tsx';
import { activatedBySpace, keyCommand, legendOf, loadModel, ModelError, ownsKeys, readUrl, withParams } from './model.ts';
import type { Bridge } from './embedBridge.ts';
import { Scrubber } from './Scrubber.tsx';
import { WorldPanel } from './WorldPanel.tsx';
import { fill, PLAYER_TEXT_EN, stageName, TextContext, type PlayerText } from './text.ts';
// player.css is the pages' stylesheet (they import it): as a dependency of this chunk it made every lazy chunk carry a CSS preload and Vite's helper for it


// The postMessage API (message types and handling) is in embedBridge.ts, loaded in a frame only.

/** The what-if code (its state, panel and bar, the worker client) loads only when a reader asks for a what-if. */
const WhatIfBox = lazy(() => import('./WhatIf.tsx'));
/** The presenter's controls, keys and speaker-window link (presenter mode only). */
const Presenter = lazy(() => import('./Presenter.tsx'));

function useReducedMotion(): boolean {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const mq = window.matchMedia('(prefers-reduced-motion: reduce)');
    setReduced(mq.matches);
    const on = (e: MediaQueryListEvent) => setReduced(e.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return reduced;
}

/** A 16×16 control glyph drawn in the text colour (icon fonts and emoji vary too much between systems). */
function Icon({ d }: { d: string }) {
  return <svg className="fp-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path d={d} fill="currentColor" /></svg>;
}

/** The players on this page, in mount order, and the one the reader used last (0: none yet). */
const players: number[] = [];
let lastPlayerId = 0;
let activePlayer = 0;

const framed = (): boolean => typeof window !== 'undefined' && window.parent !== window;

export default function FlowPlayer(props: PlayerProps) {
  const t: PlayerText = props.text ?? PLAYER_TEXT_EN;
  const flows: PlayerFlow[] = props.flows?.length ? props.flows : [props];
  const mode = props.mode ?? 'chapter';
  // the presenter is an embed of its own: the page is the player, every player key is its
  const present = mode === 'present';
  const embed = mode === 'embed' || present;
  const [show, setShow] = useState<'diagram' | 'log' | 'objects' | 'world'>('diagram');
  const [blank, setBlank] = useState(false);

  const [hydrated, setHydrated] = useState(false);
  const [flowId, setFlowId] = useState(flows[0]!.scenario);
  const flow = flows.find((f) => f.scenario === flowId) ?? flows[0]!;
  const [k8s, setK8s] = useState<string>(flow.versions.includes(props.initialK8s) ? props.initialK8s : flow.versions[0]!);
  const [baseModel, setModel] = useState<FlowModel | null>(null);
  // what-if: `whatIfOn` loads WhatIfBox (a URL or message asked for one, or the panel opened), which
  // re-simulates the flow and hands back the changed flow shown instead of the original
  const [whatIfOn, setWhatIfOn] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  const [whatIfMsg, setWhatIfMsg] = useState<unknown>(null);
  const [alt, setAlt] = useState<{ model: FlowModel; departs: number | null } | null>(null);
  const whatIfStep = useRef<StepRequest | null>(null);
  const model = alt?.model ?? baseModel;
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [urlNotice, setUrlNotice] = useState<string | null>(null);
  const [interacted, setInteracted] = useState(embed);
  const [large, setLarge] = useState(false);
  const reducedMotion = useReducedMotion();
  const reducedMotionRef = useRef(reducedMotion);
  reducedMotionRef.current = reducedMotion;
  const [snap, send] = useMachine(playerMachine);
  const { speed, notice } = snap.context;
  const playing = snap.matches('playing');

  /** What the next loaded model should open on: the ?step request, or a time when switching version. */
  const pending = useRef<{ step?: StepRequest; t?: number } | null>(null);
  const cache = useRef(new Map<string, FlowModel>());
  const root = useRef<HTMLElement>(null);

  // The model and the machine update in separate stores; clamp so a render between the two is safe.
  const total = model ? model.steps.length : (flow.totals[k8s] ?? 0);
  const step = model ? Math.min(Math.max(1, snap.context.step), total) : 0;
  const current = model?.steps[step - 1];

  // The panels (diagram, log, objects, state of world) render in a transition after the step's text:
  // the text paints as soon as the trace arrives, and React renders the panels in slices instead of one
  // long task (an embed on a phone: Lighthouse's largest paint and blocking time).
  const [panelsOn, setPanelsOn] = useState(false);
  useEffect(() => { if (model && !panelsOn) startTransition(() => setPanelsOn(true)); }, [model, panelsOn]);

  const interact = useCallback(() => setInteracted(true), []);
  // before the trace arrives, the legend the build computed: the row does not grow (and shift the
  // step's text) when it loads
  const legend = useMemo(() => (model ? legendOf(model) : flow.legends?.[k8s] ?? null), [model, flow, k8s]);

  // Panels scroll to the current line smoothly for a step now and then, but jump when steps come
  // quickly (a held key, fast playback): a smooth scroll per step would keep three panels animating.
  const lastChange = useRef({ step: 0, at: 0, rapid: false });
  if (lastChange.current.step !== step) {
    const now = typeof performance === 'undefined' ? 0 : performance.now();
    lastChange.current = { step, at: now, rapid: now - lastChange.current.at < 300 };
  }
  const jump = reducedMotion || lastChange.current.rapid || (playing && speed > 1);

  /** Which flow, version and step a URL asks for, with a notice for what does not exist here. */
  const resolve = (search: string) => {
    const req = readUrl(search);
    const notes: string[] = [];
    let f = flows[0]!;
    if (req.flow !== null) {
      const hit = flows.find((x) => x.scenario === req.flow);
      if (hit) f = hit;
      else notes.push(fill(t.noFlow, { flow: req.flow.slice(0, 40), shown: f.scenario }));
    }
    let v = f.versions.includes(props.initialK8s) ? props.initialK8s : f.versions[0]!;
    if (req.k8s !== null) {
      if ((f.versions as string[]).includes(req.k8s)) v = req.k8s as typeof v;
      else notes.push(fill(t.noVersion, { k8s: req.k8s.slice(0, 20), versions: f.versions.join(', '), shown: v }));
    }
    return { flow: f, k8s: v as string, step: req.step, large: req.large, notice: notes.length ? notes.join(' ') : null };
  };

  // ---- start: read the URL once (the server render cannot see it). Only the page's first player
  // follows the URL; a second player on the same page starts at step 1 and leaves the URL alone.
  const me = useRef(0);
  const [primary, setPrimary] = useState(false);
  useEffect(() => {
    me.current = ++lastPlayerId;
    players.push(me.current);
    const first = players[0] === me.current;
    setPrimary(first);
    if (first) {
      const r = resolve(window.location.search);
      setFlowId(r.flow.scenario);
      setK8s(r.k8s);
      if (r.step !== null) pending.current = { step: r.step };
      if (r.large) setLarge(true);
      setUrlNotice(r.notice);
      // a shared what-if link's ?step counts in the changed flow
      if (/[?&](fault|shutdown|delete|driver)=/.test(window.location.search)) { setWhatIfOn(true); whatIfStep.current = r.step; }
    }
    setHydrated(true);
    return () => { players.splice(players.indexOf(me.current), 1); };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Links to a step of this page (a chapter's "step 36" links, ?step=36#player) and Back/Forward move
  // the player in place instead of reloading the page and the trace.
  const live = useRef({ flow, k8s, model });
  live.current = { flow, k8s, model };
  useEffect(() => {
    if (!primary || embed) return;
    const go = (search: string): void => {
      const r = resolve(search);
      setUrlNotice(r.notice);
      const cur = live.current;
      if (r.flow === cur.flow && r.k8s === cur.k8s && cur.model) {
        if (r.step !== null) send({ type: 'player.goto', step: r.step });
        return;
      }
      pending.current = { step: r.step ?? 1 };
      setFlowId(r.flow.scenario);
      setK8s(r.k8s);
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = e.target instanceof Element ? e.target.closest('a[href]') : null;
      if (!(a instanceof HTMLAnchorElement) || (a.target && a.target !== '_self')) return;
      const url = new URL(a.href, window.location.href);
      if (url.origin !== window.location.origin || url.pathname !== window.location.pathname || !url.searchParams.has('step')) return;
      e.preventDefault();
      setInteracted(true);
      window.history.pushState(null, '', url.pathname + url.search + url.hash);
      go(url.search);
      const target = (url.hash && document.getElementById(decodeURIComponent(url.hash.slice(1)))) || root.current;
      target?.scrollIntoView({ behavior: reducedMotionRef.current ? 'auto' : 'smooth', block: 'start' });
    };
    const onPop = () => go(window.location.search);
    document.addEventListener('click', onClick);
    window.addEventListener('popstate', onPop);
    return () => { document.removeEventListener('click', onClick); window.removeEventListener('popstate', onPop); };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [primary, embed, send]);

  // ---- data: fetch the model of the current flow and version (cached per session)
  useEffect(() => {
    if (!hydrated) return;
    const url = flow.dataUrls[k8s];
    if (!url && !props.model) { setError(fill(t.noTrace, { scenario: flow.scenario, k8s })); return; }
    const ctrl = new AbortController();
    const apply = (m: FlowModel) => {
      const want = pending.current;
      pending.current = null;
      let target: StepRequest | null = want?.step ?? null;
      if (want?.t !== undefined) {
        // Version switch: open on the last step at or before the same trace time. Both versions
        // count time from the start of the same story, so this is "the same moment", whereas the
        // same step number may be a different event (the versions log different lines).
        target = stepAtTime(m, want.t);
      }
      setModel(m);
      setError(null);
      setLoading(false);
      send({ type: 'player.load', total: m.steps.length, step: target });
    };
    // a model given by the page (the playground's run) is shown as it is, nothing to fetch
    if (props.model) { apply(props.model); return; }
    const key = `${flow.scenario}.${k8s}`;
    const hit = cache.current.get(key);
    if (hit) { apply(hit); return; }
    setLoading(true);
    setError(null);
    loadModel(url!, { scenario: flow.scenario, k8s }, ctrl.signal).then(
      (m) => { cache.current.set(key, m); apply(m); },
      (e: unknown) => {
        if (ctrl.signal.aborted) return;
        setLoading(false);
        setError(e instanceof ModelError ? e.message : fill(t.loadFailed, { error: String(e) }));
      },
    );
    return () => ctrl.abort();
  }, [hydrated, flow, k8s, attempt, send, props.model]);

  // ---- play: one tick per period; restarted by every step change so a manual step gets a full period
  useEffect(() => {
    if (!playing) return;
    const id = window.setTimeout(() => send({ type: 'player.tick' }), periodMs(speed));
    return () => window.clearTimeout(id);
  }, [playing, step, speed, send]);

  // ---- URL follows the reader (replaceState: stepping does not fill the history). Written once the
  // reader pauses for 200 ms: Chromium throttles (and warns about) bursts of history calls, and a
  // held key or fast playback would make one per step.
  useEffect(() => {
    if (!model || step < 1 || !primary) return;
    const id = window.setTimeout(() => {
      const now = new URLSearchParams(window.location.search);
      const href = withParams(window.location.href, {
        step: now.has('step') || step !== 1 ? String(step) : null,
        k8s: now.has('k8s') || k8s !== props.initialK8s ? k8s : null,
        flow: now.has('flow') || flow.scenario !== flows[0]!.scenario ? flow.scenario : null,
      });
      if (href !== window.location.pathname + window.location.search + window.location.hash) window.history.replaceState(window.history.state, '', href);
    }, 200);
    return () => window.clearTimeout(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [model, step, k8s, flow, primary]);

  // ---- postMessage API (embedBridge.ts, loaded in a frame, or to report a bad ?parentOrigin=): tell
  // the embedding page where we are, and obey it
  const bridge = useRef<Bridge | null>(null);
  const [bridged, setBridged] = useState(false);
  useEffect(() => {
    if (!framed() && !new URLSearchParams(window.location.search).has('parentOrigin')) return;
    let gone = false;
    void import('./embedBridge.ts').then(({ connect }) => {
      if (gone) return;
      bridge.current = connect(window.location.search, {
        goto: (s) => send({ type: 'player.goto', step: s }), play: () => send({ type: 'player.play' }), pause: () => send({ type: 'player.pause' }),
        whatIf: (d) => { setWhatIfOn(true); setWhatIfMsg(d); },
      });
      const bad = bridge.current.notice;
      if (bad) setUrlNotice((n) => [n, bad].filter(Boolean).join(' '));
      setBridged(true);
    });
    return () => { gone = true; bridge.current?.dispose(); bridge.current = null; };
  }, [send]);
  useEffect(() => {
    if (!model || step < 1 || !bridged) return;
    bridge.current?.postStep({ scenario: flow.scenario, step, total, k8s, summary: current?.summary ?? '' });
  }, [model, step, total, k8s, flow, current, bridged]);

  // ---- keyboard
  // Embed: the player is the page, every player key is ours. Chapter: keys are read on the document
  // too, but never from form fields or with Ctrl/Alt/Meta, and Space is left to a focused button or
  // link. Space/Home/End act only while some of the player is in the viewport, and PageUp/PageDown
  // (which readers use to scroll) only while focus is inside the player or the reader's last click
  // was in it and it is still in view: otherwise the page scrolls as usual.
  const inView = useRef(false);
  const engaged = useRef(false);
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const io = new IntersectionObserver(([entry]) => { inView.current = !!entry?.isIntersecting; });
    io.observe(el);
    const onPointer = (e: PointerEvent) => {
      engaged.current = el.contains(e.target as Node);
      if (engaged.current) activePlayer = me.current;
    };
    const onFocus = () => { activePlayer = me.current; };
    document.addEventListener('pointerdown', onPointer, true);
    el.addEventListener('focusin', onFocus);
    return () => { io.disconnect(); document.removeEventListener('pointerdown', onPointer, true); el.removeEventListener('focusin', onFocus); };
  }, [hydrated]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || !model) return;
      const cmd = keyCommand(e);
      if (!cmd) return;
      const target = e.target instanceof Element ? e.target : null;
      if (ownsKeys(target)) return;
      // Several players on a page: the keys go to the one used last (the first one until then).
      if (players.length > 1 && (activePlayer ? activePlayer !== me.current : players[0] !== me.current)) return;
      if (cmd === 'toggle' && activatedBySpace(target)) return;
      if (!embed) {
        const focusIn = !!root.current && !!target && root.current.contains(target);
        if ((cmd === 'pageNext' || cmd === 'pagePrev') && !focusIn && !(engaged.current && inView.current)) return;
        if ((cmd === 'toggle' || cmd === 'first' || cmd === 'last') && !focusIn && !inView.current) return;
      }
      e.preventDefault();
      setInteracted(true);
      const type = ({ next: 'player.next', pageNext: 'player.next', prev: 'player.prev', pagePrev: 'player.prev', first: 'player.first', last: 'player.last', toggle: 'player.toggle' } as const)[cmd];
      send({ type });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [model, embed, send]);

  const seek = useCallback((s: number) => { setInteracted(true); send({ type: 'player.goto', step: s }); }, [send]);
  const goto = useCallback((s: StepRequest) => send({ type: 'player.goto', step: s }), [send]);
  const cmd = (type: 'player.first' | 'player.prev' | 'player.toggle' | 'player.next' | 'player.last') => () => { interact(); send({ type }); };

  const switchVersion = (v: string) => {
    interact();
    if (v === k8s) return;
    pending.current = { t: current?.t ?? 0 };
    setK8s(v);
  };
  const switchFlow = (id: string) => {
    interact();
    const f = flows.find((x) => x.scenario === id);
    if (!f || f === flow) return;
    pending.current = { step: 1 };
    setFlowId(id);
    if (!f.versions.includes(k8s as never)) setK8s(f.versions[0]!);
  };

  const title = flow.title;
  const headingLevel = embed ? 2 : 3;
  const rootClass = `fp fp-${mode}${large ? ' fp-large' : ''}`;

  // ---- before hydration (and without JavaScript): a note, no dead controls
  if (!hydrated) {
    return (
      <section className={rootClass} aria-label={fill(t.playerLabel, { title })} ref={root}>
        {embed && <h1 className="fp-title">{title}</h1>}
        <p className="fp-nojs">
          {embed ? t.noJsEmbed : t.noJsChapter}
          {embed && <a href={flow.dataUrls[k8s]}>{flow.dataUrls[k8s]}</a>}
        </p>
      </section>
    );
  }

  return (
    <TextContext.Provider value={t}>
    <section
      className={rootClass}
      aria-label={fill(t.playerLabel, { title })}
      ref={root}
      onPointerDown={interact}
      aria-busy={loading || undefined}
    >
      <div className="fp-top">
        <div className="fp-titlebar">
          {embed ? <h1 className="fp-title">{title}</h1> : <p className="fp-title">{title}</p>}
          <div className="fp-switches">
            {flows.length > 1 && (
              <fieldset className="fp-radios">
                <legend>{t.flow}</legend>
                {flows.map((f) => (
                  <label key={f.scenario}>
                    <input type="radio" name={`fp-flow-${flows[0]!.scenario}`} value={f.scenario} checked={f.scenario === flow.scenario} onChange={() => switchFlow(f.scenario)} />
                    {f.scenario}
                  </label>
                ))}
              </fieldset>
            )}
            {flow.versions.length > 1 && (
              <fieldset className="fp-radios">
                <legend>{t.kubernetes}</legend>
                {flow.versions.map((v) => (
                  <label key={v}>
                    <input type="radio" name={`fp-k8s-${flows[0]!.scenario}`} value={v} checked={v === k8s} onChange={() => switchVersion(v)} />
                    {v}
                  </label>
                ))}
              </fieldset>
            )}
            {/* a what-if re-runs a built-in scenario: not for a flow the page made itself (the playground's) */}
            {!present && (!props.model || props.yaml !== undefined) && (
              <button type="button" className="fp-btn fp-btn-text fp-whatif-open" aria-expanded={panelOpen} disabled={!baseModel}
                onClick={() => { interact(); setWhatIfOn(true); setPanelOpen((x) => !x); }}>
                {t.whatIf}
              </button>
            )}
            {embed && !present && (
              <button type="button" className="fp-btn fp-btn-text" aria-pressed={large} onClick={() => setLarge((x) => !x)}>
                {t.largeText}
              </button>
            )}
            {present && (
              <Suspense fallback={null}>
                <Presenter t={t} scenario={flow.scenario} step={step} total={model ? total : 0} k8s={k8s} show={show} onShow={setShow} onBlank={setBlank} onGoto={goto} />
              </Suspense>
            )}
          </div>
        </div>

        {whatIfOn && baseModel && (
          <Suspense fallback={null}>
            <WhatIfBox base={baseModel} scenario={props.yaml !== undefined ? { yaml: props.yaml } : flow.scenario} k8s={k8s} step={step} primary={primary} panelOpen={panelOpen} message={whatIfMsg}
              onPanel={setPanelOpen} onNotice={(n) => setUrlNotice((x) => [x, n].filter(Boolean).join(' '))} onSeek={seek}
              onFlow={(m, departs, at) => { setAlt(m ? { model: m, departs } : null); send({ type: 'player.load', total: (m ?? baseModel).steps.length, step: (m && whatIfStep.current) || at }); whatIfStep.current = null; }} />
          </Suspense>
        )}
        {(notice || urlNotice) && (
          <div className="fp-notice" role="status">
            <span>{[urlNotice, notice].filter(Boolean).join(' ')}</span>
            <button type="button" className="fp-linkbtn" onClick={() => { setUrlNotice(null); send({ type: 'player.dismissNotice' }); }}>{t.dismiss}</button>
          </div>
        )}
        {error && (
          <div className="fp-error" role="alert">
            <p>{error}</p>
            <button type="button" className="fp-btn fp-btn-text" onClick={() => setAttempt((n) => n + 1)}>{t.retry}</button>
          </div>
        )}

        {/* the controls sit above the step's text, so they stay put however long the text runs */}
        <div className="fp-transport">
          <div className="fp-controls" role="group" aria-label={t.controls}>
            <button type="button" className="fp-btn" onClick={cmd('player.first')} disabled={!model} aria-label={t.first} title={t.firstTitle}><Icon d="M3 2h2v12H3zM14 2v12L6 8z" /></button>
            <button type="button" className="fp-btn" onClick={cmd('player.prev')} disabled={!model} aria-label={t.prev} title={t.prevTitle}><Icon d="M12 2v12L4 8z" /></button>
            <button type="button" className="fp-btn fp-play" onClick={cmd('player.toggle')} disabled={!model} aria-label={playing ? t.pause : t.play} title={fill(t.playTitle, { what: playing ? t.pause : t.play })}>
              <Icon d={playing ? 'M4 2h3v12H4zM9 2h3v12H9z' : 'M4 2v12l10-6z'} />
            </button>
            <button type="button" className="fp-btn" onClick={cmd('player.next')} disabled={!model} aria-label={t.next} title={t.nextTitle}><Icon d="M4 2v12l8-6z" /></button>
            <button type="button" className="fp-btn" onClick={cmd('player.last')} disabled={!model} aria-label={t.last} title={t.lastTitle}><Icon d="M11 2h2v12h-2zM2 2v12l8-6z" /></button>
          </div>
          <div className="fp-scrub-wrap">
            <Scrubber model={model} step={step} total={total} onSeek={seek} />
            {legend && (
              <p className="fp-legend" aria-hidden="true">
                {legend.stages.map((s) => <span key={s} className="fp-key"><i style={{ background: `var(--fp-stage-${s})` }} />{stageName(t, s)}</span>)}
                {legend.warn && <span className="fp-key"><i className="tall" style={{ background: 'var(--warn)' }} />{t.warning}</span>}
                {legend.err && <span className="fp-key"><i className="tall" style={{ background: 'var(--err)' }} />{t.error}</span>}
              </p>
            )}
          </div>
          <label className="fp-speed">
            {t.speed}{' '}
            <select value={speed} onChange={(e) => { interact(); send({ type: 'player.speed', speed: Number(e.currentTarget.value) }); }}>
              {SPEEDS.map((s) => <option key={s} value={s}>{s}×</option>)}
            </select>
          </label>
          {loading && model && <span className="fp-muted" role="status">{fill(t.loadingVersion, { k8s })}</span>}
        </div>
        <div className="fp-now">
          <p className="fp-summary" aria-live="polite" aria-atomic="true">
            <span className="fp-stepno">{model ? fill(t.stepOf, { step, total }) : loading ? t.loadingTrace : '—'}</span>{' '}
            {alt?.departs === step && <span className="fp-whatif-here">{t.departsHere}</span>}{' '}
            {current?.summaryLang ? <span lang={current.summaryLang}>{current.summary}</span> : current?.summary}
          </p>
          {current && (
            <dl className="fp-facts">
              <div><dt>{t.who}</dt><dd>{current.host && current.host !== current.component ? fill(t.on, { component: current.component, host: current.host }) : current.component}</dd></div>
              <div><dt>{t.kind}</dt><dd>{t.kinds[current.kind] ?? current.kind}{current.severity ? ` (${current.severity})` : ''}</dd></div>
              <div><dt>{t.time}</dt><dd>{formatOffset(current.t)}</dd></div>
              {current.rpc && <div><dt>CSI</dt><dd><code>{current.rpc.method}</code>{current.rpc.code ? ` → ${current.rpc.code}` : ''}{current.rpc.message ? ` (${current.rpc.message})` : ''}</dd></div>}
              {current.api && <div><dt>API</dt><dd><code>{current.api.verb} {current.api.kind} {current.api.namespace ? `${current.api.namespace}/` : ''}{current.api.name}{current.api.subresource ? `/${current.api.subresource}` : ''}</code> → {current.api.code}{current.api.reason ? ` ${current.api.reason}` : ''}</dd></div>}
              {current.state && <div><dt>{t.state}</dt><dd><code>{current.state}</code></dd></div>}
              {current.cause && (
                <div className="fp-why">
                  <dt>{t.why}</dt>
                  <dd>
                    {current.why ?? causeText(current.cause)}
                    {current.cause.step !== undefined && current.cause.step !== step && (
                      <>
                        {' '}(<a href={`?step=${current.cause.step}`} className="fp-why-link" data-step={current.cause.step}
                          onClick={(e) => { if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return; e.preventDefault(); seek(current.cause!.step!); }}>
                          {fill(t.stepN, { n: current.cause.step })}
                        </a>)
                      </>
                    )}
                  </dd>
                </div>
              )}
            </dl>
          )}
        </div>

      </div>

      {model && panelsOn && !present && (
        <div className="fp-panels">
          <Diagram model={model} step={step} onSeek={seek} reducedMotion={jump} headingLevel={headingLevel} />
          <LogPane model={model} step={step} onSeek={seek} reducedMotion={jump} headingLevel={headingLevel} />
          <Inspector model={model} step={step} headingLevel={headingLevel} reducedMotion={jump} />
          <WorldPanel model={model} step={step} playing={playing} periodMs={periodMs(speed)} reducedMotion={reducedMotion} headingLevel={headingLevel} />
        </div>
      )}
      {model && panelsOn && present && (
        <div className="fp-panels fp-present-panel" data-show={show}>
          {show === 'diagram' && <Diagram model={model} step={step} onSeek={seek} reducedMotion={jump} headingLevel={headingLevel} />}
          {show === 'log' && <LogPane model={model} step={step} onSeek={seek} reducedMotion={jump} headingLevel={headingLevel} />}
          {show === 'objects' && <Inspector model={model} step={step} headingLevel={headingLevel} reducedMotion={jump} />}
          {show === 'world' && <WorldPanel model={model} step={step} playing={playing} periodMs={periodMs(speed)} reducedMotion={reducedMotion} headingLevel={headingLevel} />}
        </div>
      )}
      {present && blank && (
        <div className="fp-blank" role="dialog" aria-label={t.blanked} onClick={() => setBlank(false)}>
          <p className="visually-hidden">{t.blankedNote}</p>
        </div>
      )}
    </section>
    </TextContext.Provider>
  );
}
