/**
 * The object inspector: the API objects as they are after the current step, grouped by kind (PVC,
 * PV, VolumeAttachment, Node, CSINode first). Objects this step wrote come first, open, with the
 * changed YAML lines marked (<mark> plus a "+"/"~" gutter, so the cue is not colour alone) and the
 * removed paths listed; the others are collapsed. A card re-renders only when its version changes.
 */
import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { INSPECTED_KINDS, objectsAt, type FlowModel, type ObjectVersion } from '../../machines/view/flow.ts';
import { fill, useText } from './text.ts';

const SHORT: Record<string, string> = { PersistentVolumeClaim: 'PVC', PersistentVolume: 'PV' };

const YamlView = memo(function YamlView({ yaml, changed, created }: { yaml: string; changed: number[]; created: boolean }) {
  const marks = new Set(changed);
  const lines = yaml.replace(/\n$/, '').split('\n');
  return (
    <pre className="fp-yaml">
      {lines.map((text, i) => {
        const hit = created || marks.has(i + 1);
        return hit
          ? <mark key={i} className="fp-yl is-changed"><span className="fp-gutter">{created ? '+' : '~'}</span>{text}{'\n'}</mark>
          : <span key={i} className="fp-yl"><span className="fp-gutter"> </span>{text}{'\n'}</span>;
      })}
    </pre>
  );
});

interface Card { object: number; kind: string; name: string; namespace?: string; version: ObjectVersion; changedHere: boolean; created: boolean }

const ObjectCard = memo(function ObjectCard({ card }: { card: Card }) {
  const { kind, name, namespace, version, changedHere, created } = card;
  const t = useText();
  const label = (
    <>
      <span className="fp-kind">{SHORT[kind] ?? kind}</span> <span className="fp-objname">{namespace ? `${namespace}/` : ''}{name}</span>
      {version.yaml === null ? <span className="fp-badge is-deleted">{t.deletedHere}</span>
        : created ? <span className="fp-badge is-changed">{t.createdHere}</span>
        : changedHere ? <span className="fp-badge is-changed">{t.changedHere}</span> : null}
    </>
  );
  const body = version.yaml === null
    ? <p className="fp-deleted">{t.objectDeleted}</p>
    : (
      <>
        <YamlView yaml={version.yaml} changed={changedHere ? version.changed : []} created={created} />
        {changedHere && version.removed.length > 0 && (
          <p className="fp-removed">{t.removed} {version.removed.map((r, i) => <code key={i}>{r}</code>)}</p>
        )}
      </>
    );
  return changedHere
    ? <div className="fp-obj is-changed"><p className="fp-objhead">{label}</p>{body}</div>
    : <LazyDetails summary={label}>{body}</LazyDetails>;
}, (a, b) => a.card.version === b.card.version && a.card.changedHere === b.card.changedHere);

/** A collapsed card renders its YAML only once opened: 50 closed objects cost 50 summaries. */
function LazyDetails({ summary, children }: { summary: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="fp-obj" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="fp-objhead">{summary}</summary>
      {open && children}
    </details>
  );
}

export function Inspector({ model, step, headingLevel, reducedMotion }: { model: FlowModel; step: number; headingLevel: 2 | 3; reducedMotion: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const text = useText();
  // Bring the first changed line into view, scrolling this box only (not the page).
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const mark = el.querySelector('mark.fp-yl');
    if (!mark) return;
    // Read geometry in the next frame, after every panel has made its changes (one layout pass).
    const raf = requestAnimationFrame(() => {
      const r = mark.getBoundingClientRect();
      const b = el.getBoundingClientRect();
      if (r.top >= b.top && r.bottom <= b.bottom) return;
      el.scrollTo({ top: Math.max(0, el.scrollTop + r.top - b.top - el.clientHeight / 3), behavior: reducedMotion ? 'auto' : 'smooth' });
    });
    return () => cancelAnimationFrame(raf);
  }, [model, step, reducedMotion]);
  const cards = useMemo<Card[]>(() => objectsAt(model, step).map(({ object, version, changedHere }) => {
    const t = model.objects[object]!;
    return {
      object, kind: t.kind, name: t.name, namespace: t.namespace, version, changedHere,
      created: changedHere && version.yaml !== null && t.versions[0] === version,
    };
  }), [model, step]);
  const rank = (k: string): number => {
    const i = INSPECTED_KINDS.indexOf(k as (typeof INSPECTED_KINDS)[number]);
    return i < 0 ? INSPECTED_KINDS.length : i;
  };
  const changed = cards.filter((c) => c.changedHere);
  const groups = new Map<string, Card[]>();
  for (const c of cards.filter((x) => !x.changedHere).sort((a, b) => rank(a.kind) - rank(b.kind))) {
    let g = groups.get(c.kind);
    if (!g) groups.set(c.kind, (g = []));
    g.push(c);
  }
  const H = headingLevel === 2 ? 'h2' : 'h3';
  const G = headingLevel === 2 ? 'h3' : 'h4';
  // Cards keep their key (the object index) across steps, so a collapsed card a reader opened stays open.
  return (
    <section className="fp-panel fp-inspector" aria-labelledby="fp-insp-h">
      <H id="fp-insp-h" className="fp-panel-title">{text.objects} <span className="fp-count">{fill(text.afterStep, { step })}</span></H>
      <div className="fp-scroll" ref={box}>
        {changed.length > 0
          ? <><G className="fp-group">{text.writtenHere}</G>{changed.sort((a, b) => rank(a.kind) - rank(b.kind)).map((c) => <ObjectCard key={c.object} card={c} />)}</>
          : <p className="fp-muted">{text.noObjectChanged}</p>}
        {[...groups].map(([kind, list]) => (
          <div key={kind}>
            <G className="fp-group">{kind} <span className="fp-count">{list.length}</span></G>
            {list.map((c) => <ObjectCard key={c.object} card={c} />)}
          </div>
        ))}
      </div>
    </section>
  );
}
