/**
 * The sequence diagram beside the step, laid out by the player itself (no Mermaid in the reader's
 * browser): a window of messages around the current one, with a lane for each participant of that
 * window only, so six lanes fit where the whole flow has eleven. The lane names sit in a header
 * that stays at the top while the messages scroll, every message carries its step number (the
 * numbering of the player and the step lists), and labels wrap instead of being cut. Real text
 * throughout: readable, searchable, translatable, and drawn at load.
 *
 * The window moves only when the current message leaves it, so lanes do not jump at every step.
 * The Mermaid text of the window is offered for readers who paste it into their own documents.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { mermaidWindow, messageAt, type FlowModel } from '../../machines/view/flow.ts';
import { fill, useText } from './text.ts';

const WINDOW = 12;
/** messages kept before the current one when a window is placed */
const LEAD = 3;

function placeWindow(current: number, count: number): [number, number] {
  const from = Math.max(0, Math.min(current - LEAD, count - WINDOW));
  return [from, Math.min(count, from + WINDOW)];
}

/** "kubelet (11.142.60.212)": the component, and its host on a line of its own. */
function LaneLabel({ p }: { p: string }) {
  const m = /^(.*?) \((.*)\)$/.exec(p);
  return m ? <>{m[1]} <span className="fp-seq-host">({m[2]})</span></> : <>{p}</>;
}

interface Row { index: number; step: number; from: number; to: number; text: string; dashed: boolean }

const Rows = memo(function Rows({ rows, lanes, onSeek }: { rows: Row[]; lanes: string[]; onSeek: (step: number) => void }) {
  const t = useText();
  return (
    <ol className="fp-seq-rows" style={{ ['--fp-lanes' as string]: String(lanes.length) }}>
      {rows.map((r, i) => {
        const lo = Math.min(r.from, r.to);
        const hi = Math.max(r.from, r.to);
        const self = r.from === r.to;
        const dir = self ? 'self' : r.from < r.to ? 'right' : 'left';
        const n = lanes.length;
        const pct = (x: number): string => `${((x / n) * 100).toFixed(3)}%`;
        // every message has a row of its own, so its label may be wider than its arrow: it is placed
        // over the arrow's middle and kept inside the row (margin M% of the row, shifted back M% of itself)
        const mid = ((lo + hi + 1) / 2 / n) * 100;
        return (
          <li key={r.index} data-step={r.step} data-message={r.index} className={`fp-seq-row is-${dir}${r.dashed ? ' is-reply' : ''}`}
            style={{ gridRow: String(i + 1), ['--fp-from' as string]: pct(lo + 0.5), ['--fp-to' as string]: pct(n - hi - 0.5), ['--fp-mid' as string]: `${mid.toFixed(3)}%` }}>
            <button type="button" className="fp-seq-msg" onClick={() => onSeek(r.step)}
              title={fill(t.messageTitle, { step: r.step, from: lanes[r.from]!, to: lanes[r.to]! })}>
              <span className="fp-seq-no">{r.step}</span> <span className="fp-seq-text">{r.text}</span>
              <span className="visually-hidden">{fill(t.messageTo, { from: lanes[r.from]!, to: lanes[r.to]! })}{r.dashed ? t.reply : ''}</span>
            </button>
            <span className="fp-seq-arrow" aria-hidden="true" />
          </li>
        );
      })}
    </ol>
  );
});

export interface DiagramProps {
  model: FlowModel;
  step: number;
  onSeek: (step: number) => void;
  reducedMotion: boolean;
  headingLevel: 2 | 3;
}

export function Diagram({ model, step, onSeek, reducedMotion, headingLevel }: DiagramProps) {
  const count = model.messages.length;
  const current = messageAt(model, step);
  const [win, setWin] = useState<{ model: FlowModel; from: number; to: number }>(() => {
    const [from, to] = placeWindow(current, count);
    return { model, from, to };
  });
  const stale = win.model !== model || current < win.from || current >= win.to;
  useEffect(() => {
    if (!stale) return;
    const [from, to] = placeWindow(current, count);
    setWin({ model, from, to });
  }, [stale, current, count, model]);

  // the lanes of this window, in the model's participant order (stable between windows)
  const { lanes, rows, source } = useMemo(() => {
    const msgs = win.model === model ? model.messages.slice(win.from, win.to) : [];
    const used = new Set<string>();
    for (const m of msgs) { used.add(m.from); used.add(m.to); }
    const lanes = model.participants.filter((p) => used.has(p));
    const at = new Map(lanes.map((p, i) => [p, i]));
    const rows: Row[] = msgs.map((m, i) => ({ index: win.from + i, step: m.step, from: at.get(m.from)!, to: at.get(m.to)!, text: m.text, dashed: m.dashed }));
    // the window's Mermaid text, made once per window (not at every step)
    const source = win.model === model ? mermaidWindow(model, win.from, win.to) : '';
    return { lanes, rows, source };
  }, [model, win]);

  const m = current >= 0 ? model.messages[current] : undefined;
  // mark the current message (one class change) and bring it into view inside the box
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    for (const el of root.querySelectorAll('.fp-seq-row.is-current')) { el.classList.remove('is-current'); el.removeAttribute('aria-current'); }
    const el = root.querySelector<HTMLElement>(`.fp-seq-row[data-message="${current}"]`);
    if (!el) return;
    el.classList.add('is-current');
    el.setAttribute('aria-current', m?.step === step ? 'step' : 'true');
    const raf = requestAnimationFrame(() => {
      const head = root.querySelector<HTMLElement>('.fp-seq-head')?.offsetHeight ?? 0;
      const top = el.offsetTop - head - (root.clientHeight - head) / 3;
      const left = el.offsetLeft + el.offsetWidth / 2 - root.clientWidth / 2;
      root.scrollTo({ top: Math.max(0, top), left: Math.max(0, left), behavior: reducedMotion ? 'auto' : 'smooth' });
    });
    return () => cancelAnimationFrame(raf);
  }, [current, rows, step, m, reducedMotion]);

  const H = headingLevel === 2 ? 'h2' : 'h3';
  const t = useText();
  const first = rows[0]?.step;
  const last = rows[rows.length - 1]?.step;
  return (
    <section className="fp-panel fp-diagram" aria-labelledby="fp-diag-h">
      <H id="fp-diag-h" className="fp-panel-title">
        {t.sequence}{' '}
        <span className="fp-count">
          {count === 0 ? t.noMessagesShort : m ? fill(m.step === step ? t.currentMessage : t.lastBefore, { step: m.step, now: step, from: m.from, to: m.to }) : t.beforeFirst}
        </span>
      </H>
      {count === 0 ? <p className="fp-muted">{t.noMessages}</p> : (
        <>
          {/* tabIndex: the box scrolls, so it must be reachable by keyboard */}
          <div ref={box} className="fp-scroll fp-diagram-box fp-seq" tabIndex={0} role="group"
            aria-label={fill(t.diagramLabel, { first: first ?? '', last: last ?? '', shown: rows.length, count })} data-window={`${win.from}-${win.to}`}>
            <div className="fp-seq-grid" style={{ ['--fp-lanes' as string]: String(lanes.length) }}>
              <ol className="fp-seq-head" aria-label={t.participants}>
                {lanes.map((p) => <li key={p} title={p}><LaneLabel p={p} /></li>)}
              </ol>
              {win.from > 0 && <p className="fp-seq-more">{win.from === 1 ? t.earlierOne : fill(t.earlier, { n: win.from })}</p>}
              <Rows rows={rows} lanes={lanes} onSeek={onSeek} />
              {win.to < count && <p className="fp-seq-more">{count - win.to === 1 ? t.moreOne : fill(t.more, { n: count - win.to })}</p>}
              <div className="fp-seq-lifelines" aria-hidden="true">{lanes.map((p) => <span key={p} />)}</div>
            </div>
          </div>
          <details className="fp-seq-source">
            <summary>{fill(t.mermaidSource, { n: rows.length })}</summary>
            <pre tabIndex={0}><code>{source}</code></pre>
          </details>
        </>
      )}
    </section>
  );
}
