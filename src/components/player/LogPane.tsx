/**
 * The merged klog of every component, one line per step that logged, with a filter per lane
 * (component instance). The list is rendered once per model and filter; moving to another step only
 * toggles a class on the old and the new line and scrolls the pane (not the page), so stepping
 * through 1000+ lines stays within a frame.
 */
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { FlowModel } from '../../machines/view/flow.ts';
import { fill, useText } from './text.ts';

interface Line { step: number; lane: string; text: string; sev: string }

const LogList = memo(function LogList({ lines, hidden, onSeek }: { lines: Line[]; hidden: ReadonlySet<string>; onSeek: (step: number) => void }) {
  const t = useText();
  const stepOf = (el: EventTarget | null): number | null => {
    const li = (el as HTMLElement | null)?.closest?.('li[data-step]');
    return li ? Number(li.getAttribute('data-step')) : null;
  };
  const onClick = (e: MouseEvent) => {
    const s = stepOf(e.target);
    if (s !== null) onSeek(s);
  };
  // Roving focus: Up/Down move between lines without seeking; Enter seeks to the focused line.
  const onKeyDown = (e: KeyboardEvent) => {
    const li = (e.target as HTMLElement).closest('li[data-step]') as HTMLElement | null;
    if (!li) return;
    if (e.key === 'Enter') {
      e.preventDefault();
      onSeek(Number(li.dataset.step));
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      let next = (e.key === 'ArrowDown' ? li.nextElementSibling : li.previousElementSibling) as HTMLElement | null;
      while (next && next.hidden) next = (e.key === 'ArrowDown' ? next.nextElementSibling : next.previousElementSibling) as HTMLElement | null;
      if (next) {
        li.tabIndex = -1;
        next.tabIndex = 0;
        next.focus({ preventScroll: false });
      }
    }
  };
  return (
    <ol className="fp-log-lines" translate="no" onClick={onClick} onKeyDown={onKeyDown}>
      {lines.map((l, i) => (
        <li
          key={l.step}
          data-step={l.step}
          className={`fp-ll sev-${l.sev}`}
          hidden={hidden.has(l.lane)}
          tabIndex={i === 0 ? 0 : -1}
          title={fill(t.lineTitle, { step: l.step, lane: l.lane })}
        >
          <span className="fp-lane">{l.lane}</span> {l.text}
        </li>
      ))}
    </ol>
  );
});

export interface LogPaneProps {
  model: FlowModel;
  step: number;
  onSeek: (step: number) => void;
  reducedMotion: boolean;
  headingLevel: 2 | 3;
}

export function LogPane({ model, step, onSeek, reducedMotion, headingLevel }: LogPaneProps) {
  const lines = useMemo<Line[]>(
    () => model.steps.filter((s) => s.log).map((s) => ({ step: s.i, lane: s.instance, text: s.log!, sev: s.severity ?? 'I' })),
    [model],
  );
  const counts = useMemo(() => {
    const c = new Map<string, number>();
    for (const l of lines) c.set(l.lane, (c.get(l.lane) ?? 0) + 1);
    // Lanes in the model's order, then any instance the lane list does not name.
    const order = [...model.lanes.map((l) => l.id).filter((id) => c.has(id)), ...[...c.keys()].filter((k) => !model.lanes.some((l) => l.id === k))];
    return order.map((id) => ({ id, n: c.get(id)! }));
  }, [lines, model]);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => setHidden(new Set()), [model]);

  const box = useRef<HTMLDivElement>(null);
  const items = useRef<HTMLElement[]>([]);
  const marked = useRef<HTMLElement | null>(null);
  /** index of the first line marked still to come; -1: no marks yet (a new list, or lanes changed) */
  const futureFrom = useRef(-1);
  useLayoutEffect(() => {
    items.current = Array.from(box.current?.querySelectorAll<HTMLElement>('li[data-step]') ?? []);
    futureFrom.current = -1;
  }, [lines]);
  useEffect(() => { futureFrom.current = -1; }, [hidden]);
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const prev = marked.current;
    if (prev) {
      prev.classList.remove('is-current', 'is-near');
      prev.removeAttribute('aria-current');
    }
    marked.current = null;
    // The current step's line; if the step printed nothing (or its lane is hidden), the last shown
    // line before it, marked fainter. Lines are in step order: binary search, no DOM query.
    let lo = 0;
    let hi = lines.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (lines[mid]!.step <= step) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    while (found >= 0 && hidden.has(lines[found]!.lane)) found--;
    const el = found >= 0 ? items.current[found] : undefined;
    // what is still to come: every line after this one. Only the lines whose side changed since the
    // last step get their class toggled (a selector over all following siblings would restyle 1000
    // lines at every step)
    const from = found + 1;
    const all = items.current;
    const [a, b] = futureFrom.current < 0 ? [0, all.length] : [Math.min(futureFrom.current, from), Math.max(futureFrom.current, from)];
    for (let i = a; i < b; i++) all[i]?.classList.toggle('is-future', i >= from);
    futureFrom.current = from;
    if (!el) return;
    const exact = lines[found]!.step === step;
    el.classList.add(exact ? 'is-current' : 'is-near');
    if (exact) el.setAttribute('aria-current', 'step');
    marked.current = el;
    // The line of the current step becomes the list's tab stop (roving tabindex), unless focus is
    // already in the list (the reader is moving through it with the arrows).
    if (!root.contains(document.activeElement)) {
      const stop = root.querySelector<HTMLElement>('li[tabindex="0"]');
      if (stop && stop !== el) stop.tabIndex = -1;
      el.tabIndex = 0;
    }
    // Scroll the pane only (scrollIntoView would also scroll the page to the pane), in the next
    // frame: geometry is read once every panel has made its changes, so layout runs once.
    const raf = requestAnimationFrame(() => {
      const top = el.offsetTop - root.clientHeight / 2 + el.offsetHeight / 2;
      root.scrollTo({ top: Math.max(0, top), behavior: reducedMotion ? 'auto' : 'smooth' });
    });
    return () => cancelAnimationFrame(raf);
  }, [step, lines, hidden, reducedMotion]);

  const H = headingLevel === 2 ? 'h2' : 'h3';
  const toggle = (id: string) => setHidden((h) => {
    const next = new Set(h);
    if (next.has(id)) next.delete(id); else next.add(id);
    return next;
  });
  const t = useText();
  return (
    <section className="fp-panel fp-log" aria-labelledby="fp-log-h">
      <H id="fp-log-h" className="fp-panel-title">{t.log} <span className="fp-count">{fill(t.lines, { n: lines.length })}</span></H>
      <p className="fp-log-legend">
        <span><i className="fp-key-line" aria-hidden="true" />{t.thisLine}</span>
        <span><i className="fp-key-line is-near" aria-hidden="true" />{t.nearLine}</span>
        <span><i className="fp-key-line is-future" aria-hidden="true" />{t.futureLine}</span>
      </p>
      <details className="fp-lanes-box">
        <summary>{fill(t.lanes, { shown: counts.length - counts.filter((c) => hidden.has(c.id)).length, count: counts.length })}</summary>
        <fieldset className="fp-lanes">
          <legend className="visually-hidden">{t.showLinesOf}</legend>
          {counts.map(({ id, n }) => (
            <label key={id} className="fp-chip">
              <input type="checkbox" checked={!hidden.has(id)} onChange={() => toggle(id)} />
              {id} <span className="fp-count">{n}</span>
            </label>
          ))}
          {hidden.size > 0 && <button type="button" className="fp-linkbtn" onClick={() => setHidden(new Set())}>{t.showAll}</button>}
        </fieldset>
      </details>
      <div className="fp-scroll fp-log-box" ref={box}>
        <LogList lines={lines} hidden={hidden} onSeek={onSeek} />
      </div>
    </section>
  );
}
