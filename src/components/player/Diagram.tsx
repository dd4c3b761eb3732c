/**
 * The sequence diagram beside the step: Mermaid text from mermaidWindow(), a window of about 30
 * messages around the current one, redrawn only when the current message leaves the window; the
 * current message is highlighted by adding a class to its label and its arrow in the SVG.
 *
 * Mermaid is large: it is imported (through src/components/diagram/mermaid.ts) only once `load` is
 * true. Chapters pass the reader's first interaction with the player; embeds load it at once.
 */
import { useEffect, useRef, useState } from 'react';
import { mermaidWindow, messageAt, type FlowModel } from '../../machines/view/flow.ts';

const WINDOW = 30;
/** messages kept before the current one when a window is placed */
const LEAD = 8;

function placeWindow(current: number, count: number): [number, number] {
  const from = Math.max(0, Math.min(current - LEAD, count - WINDOW));
  return [from, Math.min(count, from + WINDOW)];
}

/**
 * Mermaid 12's sequence SVG draws, per message in order, one `text.messageText` and one line
 * (`line.messageLine0`, or `.messageLine1` when dashed; a `path` of the same classes for a message
 * to itself). Notes use other classes, so the nth of each is message `from + n`.
 */
function highlight(host: HTMLElement, index: number, scroll: boolean, reducedMotion: boolean): void {
  const svg = host.querySelector('svg');
  if (!svg) return;
  for (const el of svg.querySelectorAll('.fp-msg-current')) el.classList.remove('fp-msg-current');
  if (index < 0) return;
  const texts = svg.querySelectorAll('.messageText');
  if (index >= texts.length) return;
  const text = texts[index];
  const line = svg.querySelectorAll('.messageLine0, .messageLine1')[index];
  text?.classList.add('fp-msg-current');
  line?.classList.add('fp-msg-current');
  if (!scroll || !text) return;
  // Scroll the diagram box (never the page) so the current message sits in its upper third. The
  // label's position comes from its SVG attributes (the SVG is drawn at scale 1), which needs no
  // layout pass; the rendered box is read only when they are missing.
  const x = Number(text.getAttribute('x'));
  const y = Number(text.getAttribute('y'));
  let top: number;
  let left: number;
  if (text.hasAttribute('y') && Number.isFinite(x) && Number.isFinite(y)) {
    top = y - host.clientHeight / 3;
    left = x - host.clientWidth / 2;
  } else {
    const box = host.getBoundingClientRect();
    const r = (text as SVGGraphicsElement).getBoundingClientRect();
    top = host.scrollTop + (r.top - box.top) - host.clientHeight / 3;
    left = host.scrollLeft + (r.left - box.left) - host.clientWidth / 2 + r.width / 2;
  }
  host.scrollTo({ top: Math.max(0, top), left: Math.max(0, left), behavior: reducedMotion ? 'auto' : 'smooth' });
}

/** Mermaid scales its SVG down to the box (width 100%); at its natural width labels stay readable and the box scrolls. */
function naturalWidth(host: HTMLElement): void {
  const svg = host.querySelector('svg');
  if (svg?.style.maxWidth) svg.style.width = svg.style.maxWidth;
}

export interface DiagramProps {
  model: FlowModel;
  step: number;
  load: boolean;
  onLoad: () => void;
  reducedMotion: boolean;
  headingLevel: 2 | 3;
}

export function Diagram({ model, step, load, onLoad, reducedMotion, headingLevel }: DiagramProps) {
  const count = model.messages.length;
  const current = messageAt(model, step);
  const [win, setWin] = useState<{ model: FlowModel; from: number; to: number }>(() => {
    const [from, to] = placeWindow(current, count);
    return { model, from, to };
  });
  const stale = win.model !== model || current < win.from || current >= win.to;
  // A new window is drawn once the reader has stayed 150 ms: drawing takes Mermaid tens of ms, and a
  // held key would otherwise pay for windows nobody sees. Until then nothing is highlighted.
  useEffect(() => {
    if (!stale) return;
    const id = window.setTimeout(() => {
      const [from, to] = placeWindow(current, count);
      setWin({ model, from, to });
    }, win.model === model ? 150 : 0);
    return () => window.clearTimeout(id);
  }, [stale, current, count, model, win.model]);

  const host = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const key = `${model.scenario}.${model.k8s}:${win.from}-${win.to}`;
  useEffect(() => {
    const el = host.current;
    if (!load || !el || count === 0 || win.model !== model) return;
    let cancelled = false;
    setFailed(false);
    import('../diagram/mermaid.ts')
      .then(({ renderMermaid }) => renderMermaid(el, mermaidWindow(model, win.from, win.to), {
        title: `Sequence diagram, messages ${win.from + 1} to ${win.to} of ${count}`,
      }))
      .then((ok) => {
        naturalWidth(el);
        if (!cancelled) { setDrawn(key); setFailed(!ok); }
      })
      .catch(() => { if (!cancelled) setFailed(true); });
    return () => { cancelled = true; };
  }, [load, key, model, win, count]);

  // Highlight after every step and after every redraw (the colour-scheme redraw replaces the SVG too).
  const currentRef = useRef({ index: current - win.from, reducedMotion });
  currentRef.current = { index: current - win.from, reducedMotion };
  useEffect(() => {
    const el = host.current;
    if (!el || drawn !== key) return;
    highlight(el, current - win.from, false, reducedMotion);
    // Geometry is read in the next frame, after every panel has made its changes: one layout pass.
    const raf = requestAnimationFrame(() => highlight(el, current - win.from, true, reducedMotion));
    return () => cancelAnimationFrame(raf);
  }, [drawn, key, current, win.from, reducedMotion]);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const mo = new MutationObserver(() => {
      if (el.querySelector('svg') && !el.querySelector('.fp-msg-current')) {
        naturalWidth(el);
        highlight(el, currentRef.current.index, false, true);
      }
    });
    mo.observe(el, { childList: true });
    return () => mo.disconnect();
  }, []);

  const H = headingLevel === 2 ? 'h2' : 'h3';
  const m = current >= 0 ? model.messages[current] : undefined;
  return (
    <section className="fp-panel fp-diagram" aria-labelledby="fp-diag-h">
      <H id="fp-diag-h" className="fp-panel-title">
        Sequence{' '}
        <span className="fp-count">
          {count === 0 ? 'no messages' : m ? `message ${current + 1} of ${count}${m.step === step ? '' : ` (last before step ${step})`}: ${m.from} → ${m.to}` : 'before the first message'}
        </span>
      </H>
      {count === 0 ? <p className="fp-muted">This flow sends no API or CSI messages.</p> : !load ? (
        <div className="fp-diagram-placeholder">
          <p>The sequence diagram is drawn with Mermaid, loaded when you use the player.</p>
          <button type="button" className="fp-btn fp-btn-text" onClick={onLoad}>Show diagram</button>
        </div>
      ) : null}
      {/* tabIndex: the box scrolls, so it must be reachable by keyboard */}
      <div ref={host} className="fp-scroll fp-diagram-box" hidden={!load || count === 0} tabIndex={0} role="group" aria-label="Sequence diagram (scrollable)" data-window={`${win.from}-${win.to}`} />
      {load && count > 0 && drawn !== key && !failed && <p className="fp-muted" role="status">Drawing the diagram…</p>}
    </section>
  );
}
