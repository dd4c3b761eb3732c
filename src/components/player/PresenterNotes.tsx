/**
 * The speaker window of the presenter (/present/<scenario>/notes/): it follows the presenter
 * window's step over a BroadcastChannel and shows, for the trainer's eyes only, what the step does
 * and why, the line it prints, what comes next, and a timer. Its buttons move the presenter window.
 */
import { useEffect, useRef, useState } from 'react';
import { causeText, formatOffset, type FlowModel } from '../../machines/view/flow.ts';
import { loadModel, ModelError } from './model.ts';
import { isPresentMessage, presentChannel, type PresentMessage } from './present.ts';
import './player.css';
import { fill, PLAYER_TEXT_EN, type PlayerText } from './text.ts';

export interface PresenterNotesProps {
  scenario: string;
  title: string;
  dataUrls: Record<string, string>;
  versions: string[];
  initialK8s: string;
  /** the words in the page's language (English when absent) */
  text?: PlayerText;
}

const clock = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

export default function PresenterNotes({ scenario, title, dataUrls, initialK8s, text }: PresenterNotesProps) {
  const t: PlayerText = text ?? PLAYER_TEXT_EN;
  const presentHref = fill(t.presentHref, { scenario });
  const [where, setWhere] = useState<{ step: number; k8s: string } | null>(null);
  const [model, setModel] = useState<FlowModel | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [started, setStarted] = useState(() => Date.now());
  const [now, setNow] = useState(() => Date.now());
  const channel = useRef<BroadcastChannel | null>(null);

  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') { setError(t.noChannel); return; }
    const ch = new BroadcastChannel(presentChannel(scenario));
    channel.current = ch;
    ch.onmessage = (e: MessageEvent) => {
      if (isPresentMessage(e.data) && e.data.type === 'step') setWhere({ step: e.data.step, k8s: e.data.k8s });
    };
    // the presenter may be open already: ask where it is
    ch.postMessage({ type: 'hello' } satisfies PresentMessage);
    return () => { ch.close(); channel.current = null; };
  }, [scenario]);

  const k8s = where?.k8s ?? initialK8s;
  useEffect(() => {
    const url = dataUrls[k8s];
    if (!url) { setError(fill(t.noTrace, { scenario, k8s })); return; }
    if (model?.k8s === k8s) return;
    const ctrl = new AbortController();
    loadModel(url, { scenario, k8s }, ctrl.signal).then(
      (m) => { setModel(m); setError(null); },
      (e: unknown) => { if (!ctrl.signal.aborted) setError(e instanceof ModelError ? e.message : String(e)); },
    );
    return () => ctrl.abort();
  }, [k8s, dataUrls, scenario, model?.k8s]);

  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, []);

  const go = (step: number): void => { channel.current?.postMessage({ type: 'goto', step } satisfies PresentMessage); };
  const step = where?.step ?? 0;
  const st = model && step >= 1 ? model.steps[step - 1] : undefined;
  const next = model && step >= 1 ? model.steps[step] : undefined;
  return (
    <main className="fp fp-notes" aria-labelledby="notes-h">
      <h1 id="notes-h" className="fp-title">{fill(t.notesTitle, { title })}</h1>
      <p className="fp-notes-bar">
        <span className="fp-notes-timer" aria-label={t.timeSinceStart}>{clock(now - started)}</span>{' '}
        <button type="button" className="fp-btn fp-btn-text" onClick={() => { setStarted(Date.now()); setNow(Date.now()); }}>{t.resetTimer}</button>{' '}
        <button type="button" className="fp-btn fp-btn-text" disabled={step <= 1} onClick={() => go(step - 1)}>{t.previous}</button>{' '}
        <button type="button" className="fp-btn fp-btn-text" disabled={!model || step >= (model?.steps.length ?? 0)} onClick={() => go(step + 1)}>{t.nextButton}</button>{' '}
        <a href={presentHref}>{t.presenterWindow}</a>
      </p>
      {error && <p className="fp-error" role="alert">{error}</p>}
      {!where && !error && <p className="fp-muted" role="status">{t.waiting.split('{link}')[0]}<a href={presentHref}>{presentHref}</a>{t.waiting.split('{link}')[1]}</p>}
      {st && (
        <section className="fp-notes-now" aria-live="polite">
          <h2 className="fp-stepno">{fill(t.notesStep, { step: st.i, total: model!.steps.length })} <span className="fp-muted">{fill(t.notesWhen, { time: formatOffset(st.t), k8s })}</span></h2>
          <p className="fp-summary" lang={st.summaryLang}>{st.summary}</p>
          <dl className="fp-facts">
            <div><dt>{t.who}</dt><dd>{st.host && st.host !== st.component ? fill(t.on, { component: st.component, host: st.host }) : st.component}</dd></div>
            {st.cause && <div><dt>{t.why}</dt><dd>{st.why ?? causeText(st.cause)}{st.cause.step ? ` (${fill(t.stepN, { n: st.cause.step })})` : ''}</dd></div>}
            {st.rpc && <div><dt>CSI</dt><dd><code>{st.rpc.method}</code>{st.rpc.code ? ` → ${st.rpc.code}` : ''}</dd></div>}
            {st.api && <div><dt>API</dt><dd><code>{st.api.verb} {st.api.kind} {st.api.name}{st.api.subresource ? `/${st.api.subresource}` : ''}</code> → {st.api.code}</dd></div>}
          </dl>
          {st.log && <pre className="fp-notes-log" translate="no"><code>{st.log}</code></pre>}
        </section>
      )}
      {next && (
        <section className="fp-notes-next">
          <h2>{fill(t.nextStep, { n: next.i })}</h2>
          <p lang={next.summaryLang}>{next.summary}</p>
        </section>
      )}
    </main>
  );
}
