/**
 * The components' own view of the world at the current step: the attach/detach controller's and
 * each kubelet's desired and actual state of world (upstream: pkg/controller/volume/attachdetach/cache
 * and pkg/kubelet/volumemanager/cache), a ceph backend's journal (omaps, images, trash), and the
 * timers they are waiting on. Rows this step added or changed are marked.
 */
import { memo, useEffect, useState } from 'react';
import { timersAt, versionAt, type FlowModel, type WorldTrack, type WorldVersion } from '../../machines/view/flow.ts';
import { formatRemaining, timerLabel, virtualTime, worldTitle } from './model.ts';
import { MachineStates } from './MachineStates.tsx';
import { fill, useText, type PlayerText } from './text.ts';

type Row = Record<string, unknown>;

const tableTitles = (t: PlayerText): Record<string, string> => ({
  desired: t.desired,
  actual: t.actual,
  reportedAsAttached: t.reportedAsAttached,
  volumesInUse: t.volumesInUse,
  omaps: 'omaps',
  images: 'images',
  trash: 'trash',
});

function cell(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.length ? v.map(cell).join('\n') : '—';
  if (typeof v === 'object') return Object.entries(v as Row).map(([k, x]) => (k === 'pod' || k === 'name' ? cell(x) : `${k}: ${cell(x)}`)).join(', ');
  return String(v);
}

const isRowList = (v: unknown): v is Row[] => Array.isArray(v) && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x));

function Table({ name, rows, before, caption }: { name: string; rows: Row[]; before: Set<string> | null; caption: string }) {
  const t = useText();
  if (rows.length === 0) return <p className="fp-muted"><span className="fp-tname">{caption}</span>: {t.empty}</p>;
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return (
    <div className="fp-table-wrap">
      <table className="fp-table">
        <caption>{caption}</caption>
        <thead><tr>{before && <th scope="col"><span className="visually-hidden">{t.changed}</span></th>}{cols.map((c) => <th key={c} scope="col">{c}</th>)}</tr></thead>
        <tbody>
          {rows.map((r, i) => {
            const changed = before !== null && !before.has(JSON.stringify(r));
            return (
              <tr key={`${name}-${i}`} className={changed ? 'is-changed' : undefined}>
                {before && <td className="fp-gutter">{changed ? <span title={t.changedAtStep}>~</span> : ''}</td>}
                {cols.map((c) => <td key={c}>{cell(r[c])}</td>)}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** One key of a world's tables: a row list, a map (node → list), a plain list, or a nested group. */
function Entry({ name, value, prev }: { name: string; value: unknown; prev: unknown }) {
  const caption = tableTitles(useText())[name] ?? name;
  if (isRowList(value)) {
    const before = prev === undefined ? null : new Set(isRowList(prev) ? prev.map((r) => JSON.stringify(r)) : []);
    return <Table name={name} rows={value} before={before} caption={caption} />;
  }
  if (Array.isArray(value)) {
    const rows = value.map((x) => ({ value: x }));
    const before = prev === undefined ? null : new Set(Array.isArray(prev) ? prev.map((x) => JSON.stringify({ value: x })) : []);
    return <Table name={name} rows={rows} before={before} caption={caption} />;
  }
  if (value && typeof value === 'object') {
    const obj = value as Row;
    const p = prev && typeof prev === 'object' ? (prev as Row) : undefined;
    const scalars = Object.entries(obj).filter(([, v]) => v === null || typeof v !== 'object');
    const nested = Object.entries(obj).filter(([, v]) => v !== null && typeof v === 'object');
    // A map of lists keyed by node (reportedAsAttached) reads best as key | value rows.
    if (nested.length && nested.every(([, v]) => Array.isArray(v) && !isRowList(v))) {
      const rows = Object.entries(obj).map(([k, v]) => ({ key: k, value: v }));
      const before = p === undefined ? null : new Set(Object.entries(p).map(([k, v]) => JSON.stringify({ key: k, value: v })));
      return <Table name={name} rows={rows} before={before} caption={caption} />;
    }
    return (
      <div className="fp-world-group">
        {scalars.length > 0 && <p className="fp-muted">{scalars.map(([k, v]) => `${k}: ${cell(v)}`).join(' · ')}</p>}
        {nested.map(([k, v]) => <Entry key={k} name={k} value={v} prev={p === undefined ? undefined : p[k] ?? []} />)}
      </div>
    );
  }
  return <p><span className="fp-tname">{caption}</span>: {cell(value)}</p>;
}

const WorldTables = memo(function WorldTables({ track, version, prev, changedHere, H }: { track: WorldTrack; version: WorldVersion; prev: WorldVersion | undefined; changedHere: boolean; H: 'h3' | 'h4' }) {
  const t = useText();
  const title = track.component === 'csi-controller-plugin' && 'ceph' in version.tables ? 'Ceph backend (rbd pool journal)' : worldTitle(track.instance, track.component);
  return (
    <div className="fp-world">
      <H className="fp-group">{title}{changedHere && <span className="fp-badge is-changed">{t.changedHere}</span>}</H>
      {Object.entries(version.tables).map(([k, v]) => (
        <Entry key={k} name={k} value={v} prev={changedHere ? (prev?.tables[k] ?? []) : undefined} />
      ))}
    </div>
  );
});

/**
 * Running timers with a progress bar. While playing (and unless the reader asked for reduced motion)
 * the trace clock is interpolated between this step and the next, so the bars move smoothly.
 */
function Timers({ model, step, playing, periodMs, reducedMotion, H }: { model: FlowModel; step: number; playing: boolean; periodMs: number; reducedMotion: boolean; H: 'h3' | 'h4' }) {
  const [fraction, setFraction] = useState(0);
  useEffect(() => {
    setFraction(0);
    if (!playing || reducedMotion) return;
    const t0 = performance.now();
    let raf = 0;
    const frame = (now: number): void => {
      setFraction(Math.min(1, (now - t0) / periodMs));
      if (now - t0 < periodMs) raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    return () => cancelAnimationFrame(raf);
  }, [step, playing, periodMs, reducedMotion]);
  const now = virtualTime(model, step, fraction);
  const timers = timersAt(model, step).filter((t) => t.endMs > now);
  const text = useText();
  return (
    <div className="fp-timers">
      <H className="fp-group">{text.timers} <span className="fp-count">{fill(text.running, { n: timers.length })}</span></H>
      {timers.length === 0 ? <p className="fp-muted">{text.noTimer}</p> : (
        <ul className="fp-timer-list">
          {timers.map((t) => {
            const total = t.endMs - t.startMs;
            const done = Math.min(total, Math.max(0, now - t.startMs));
            return (
              <li key={`${t.instance}|${t.name}|${t.subject}|${t.startMs}`}>
                <div className="fp-timer-head">
                  <strong>{timerLabel(t)}</strong> <code>{t.name}</code>
                  <span className="fp-timer-left">{fill(text.left, { time: formatRemaining(t.endMs - now) })}</span>
                </div>
                <div className="fp-timer-subject">{t.subject} <span className="fp-muted">({t.instance})</span></div>
                <progress max={Math.round(total)} value={Math.round(done)} aria-label={`${timerLabel(t)}: ${fill(text.left, { time: formatRemaining(t.endMs - now) })}`} />
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

export interface WorldPanelProps {
  model: FlowModel;
  step: number;
  playing: boolean;
  periodMs: number;
  reducedMotion: boolean;
  headingLevel: 2 | 3;
}

export function WorldPanel({ model, step, playing, periodMs, reducedMotion, headingLevel }: WorldPanelProps) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  const G = headingLevel === 2 ? 'h3' : 'h4';
  const t = useText();
  return (
    <section className="fp-panel fp-worlds" aria-labelledby="fp-world-h">
      <H id="fp-world-h" className="fp-panel-title">{t.world}</H>
      {/* tabIndex: the box scrolls */}
      <div className="fp-scroll" tabIndex={0} role="group" aria-labelledby="fp-world-h">
        <MachineStates model={model} step={step} H={G} />
        <Timers model={model} step={step} playing={playing} periodMs={periodMs} reducedMotion={reducedMotion} H={G} />
        {model.worlds.length === 0 && <p className="fp-muted">{t.noTables}</p>}
        {model.worlds.map((w, i) => {
          const v = versionAt(w.versions, step);
          if (v < 0) return <p key={i} className="fp-muted">{fill(t.noTablesYet, { title: worldTitle(w.instance, w.component) })}</p>;
          const version = w.versions[v]!;
          return <WorldTables key={i} track={w} version={version} prev={w.versions[v - 1]} changedHere={version.step === step && v > 0} H={G} />;
        })}
      </div>
    </section>
  );
}
