/**
 * Browser-side helpers of the flow player that hold no React: loading and checking a flow model,
 * reading and writing the page URL, mapping keys to player commands, and the wording of timers.
 * Imports only the browser-safe flow.ts (never src/machines/index.ts: it pulls the simulation).
 */
import { FLOW_MODEL_VERSION, type FlowModel, type FlowTimer } from '../../machines/view/flow.ts';

// ------------------------------------------------------------------ the scrubber's legend

export const STAGES = ['provision', 'attach', 'mount', 'unmount', 'detach', 'delete', 'register', 'resize', 'snapshot', 'other'] as const;

export interface Legend { stages: string[]; warn: boolean; err: boolean }

/** The stages and severities present in a model, for the scrubber's legend. */
export function legendOf(model: FlowModel): Legend {
  const seen = new Set<string>();
  let warn = false;
  let err = false;
  for (const s of model.steps) {
    if (s.severity === 'W') warn = true;
    else if (s.severity === 'E' || s.severity === 'F') err = true;
    else if (s.stage) seen.add(s.stage);
  }
  return { stages: STAGES.filter((s) => seen.has(s)), warn, err };
}

// ------------------------------------------------------------------ loading

export class ModelError extends Error {}

/** Structural check of what the JSON file holds: enough that the views can index it without guarding. */
export function checkModel(x: unknown, want: { scenario: string; k8s: string }): FlowModel {
  const m = x as Partial<FlowModel> | null;
  if (!m || typeof m !== 'object') throw new ModelError('The trace file does not hold a flow model.');
  if (m.version !== FLOW_MODEL_VERSION) {
    throw new ModelError(`The trace file has model version ${String(m.version)}; this player reads version ${FLOW_MODEL_VERSION}. Reload the page to get matching files.`);
  }
  if (m.scenario !== want.scenario || m.k8s !== want.k8s) {
    throw new ModelError(`The trace file is for ${String(m.scenario)} on Kubernetes ${String(m.k8s)}, not ${want.scenario} on ${want.k8s}.`);
  }
  const arrays = ['steps', 'lanes', 'objects', 'worlds', 'participants', 'messages', 'charts'] as const;
  for (const k of arrays) if (!Array.isArray(m[k])) throw new ModelError(`The trace file has no ${k} list.`);
  if (m.steps!.length === 0) throw new ModelError('The trace has no steps.');
  return m as FlowModel;
}

export async function loadModel(url: string, want: { scenario: string; k8s: string }, signal?: AbortSignal): Promise<FlowModel> {
  let res: Response;
  try {
    res = await fetch(url, { signal });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new ModelError('The trace could not be downloaded (network error).');
  }
  if (!res.ok) throw new ModelError(`The trace could not be downloaded (HTTP ${res.status} for ${url}).`);
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new ModelError('The trace file is not valid JSON.');
  }
  return checkModel(json, want);
}

// ------------------------------------------------------------------ URL

export interface UrlRequest {
  step: string | null;
  k8s: string | null;
  flow: string | null;
  large: boolean;
}

export function readUrl(search: string): UrlRequest {
  const p = new URLSearchParams(search);
  return { step: p.get('step'), k8s: p.get('k8s'), flow: p.get('flow'), large: p.get('large') === '1' };
}

/** The same URL with `params` set (other parameters and the hash kept), for history.replaceState. */
export function withParams(href: string, params: Record<string, string | null>): string {
  const u = new URL(href);
  for (const [k, v] of Object.entries(params)) {
    if (v === null) u.searchParams.delete(k);
    else u.searchParams.set(k, v);
  }
  return u.pathname + u.search + u.hash;
}

// ------------------------------------------------------------------ embedding

/**
 * The `?parentOrigin=` allow-list of an embed: the origins (comma-separated, e.g.
 * `https://wiki.example.com,https://slides.example.com`) whose messages it obeys and to which it
 * sends its own. `null` when the parameter is absent (any parent, messages sent to '*'); an entry
 * that is not an origin is reported and allows nothing, so a typo fails closed.
 */
export function parentOrigins(search: string): { origins: string[] | null; notice: string | null } {
  const raw = new URLSearchParams(search).get('parentOrigin');
  if (raw === null) return { origins: null, notice: null };
  const origins: string[] = [];
  const bad: string[] = [];
  for (const part of raw.split(',').map((x) => x.trim()).filter(Boolean)) {
    let origin: string | null = null;
    try { origin = new URL(part).origin; } catch { origin = null; }
    if (origin && origin !== 'null' && origin === part.replace(/\/$/, '')) origins.push(origin); else bad.push(part);
  }
  const notice = bad.length ? `parentOrigin: ${bad.map((b) => `“${b.slice(0, 60)}”`).join(', ')} ${bad.length === 1 ? 'is not an origin' : 'are not origins'} (scheme://host[:port]); ${origins.length ? 'only the others are allowed' : 'no page may drive this player'}.` : null;
  return { origins, notice };
}

// ------------------------------------------------------------------ keys

export type KeyCommand = 'next' | 'prev' | 'first' | 'last' | 'toggle' | 'pageNext' | 'pagePrev';

/**
 * The player's keys. PageDown/PageUp are what presentation clickers send; they are told apart from
 * the arrows so a chapter can keep them for page scrolling when the player is not in use.
 */
export function keyCommand(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'metaKey'>): KeyCommand | null {
  if (e.ctrlKey || e.altKey || e.metaKey) return null;
  switch (e.key) {
    case 'ArrowRight': return 'next';
    case 'ArrowLeft': return 'prev';
    case 'Home': return 'first';
    case 'End': return 'last';
    case ' ': case 'Spacebar': return 'toggle';
    case 'PageDown': return 'pageNext';
    case 'PageUp': return 'pagePrev';
    default: return null;
  }
}

/** Elements that own the keys they receive: typing, choosing, or native widgets. */
export function ownsKeys(el: Element | null): boolean {
  if (!el) return false;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return (el as HTMLInputElement).type !== 'range' || !el.hasAttribute('data-fp-scrubber');
  return (el as HTMLElement).isContentEditable;
}

/** Elements that Space activates (buttons, links, summaries): the player leaves Space to them. */
export function activatedBySpace(el: Element | null): boolean {
  if (!el) return false;
  return el.matches('button, a[href], summary, [role="button"], [role="link"], [role="checkbox"], [role="switch"], [role="tab"]');
}

// ------------------------------------------------------------------ time and timers

/** A duration as a person says it: 500ms, 1.5s, 2m3s, 6m. Rounded to the millisecond. */
export function formatDuration(ms: number): string {
  const total = Math.round(ms);
  if (total < 1000) return `${total}ms`;
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = (total % 60_000) / 1000;
  const sec = s === 0 ? '' : `${Number.isInteger(s) ? s : s.toFixed(3).replace(/0+$/, '')}s`;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${sec}` || '0s';
}

/** What is left of a timer, to a tenth of a second (it counts down while playing). */
export function formatRemaining(ms: number): string {
  if (ms <= 0) return '0s';
  const tenths = Math.ceil(ms / 100);
  const m = Math.floor(tenths / 600);
  const s = ((tenths % 600) / 10).toFixed(1);
  return m ? `${m}m${s.padStart(4, '0')}s` : `${s}s`;
}

/** The upstream timer names in words (the name itself stays visible next to it). */
export function timerLabel(t: Pick<FlowTimer, 'name' | 'startMs' | 'endMs'>): string {
  const d = formatDuration(t.endMs - t.startMs);
  switch (t.name) {
    case 'durationBeforeRetry': return `backoff ${d}`;
    case 'maxWaitForUnmountDuration': return `force detach after ${d}`;
    case 'podAttachAndMountTimeout': return `pod volume wait ${d}`;
    default: return d;
  }
}

/**
 * The trace time shown between step `step` and the next one while playing, `fraction` (0..1) of the
 * way through the period: timers count down smoothly instead of jumping once per step.
 */
export function virtualTime(model: FlowModel, step: number, fraction: number): number {
  const a = model.steps[step - 1]?.t ?? 0;
  const b = model.steps[step]?.t ?? a;
  return a + (b - a) * Math.min(1, Math.max(0, fraction));
}

// ------------------------------------------------------------------ labels

/** A world track's heading: whose tables these are. */
export function worldTitle(instance: string, component: string): string {
  if (component === 'attach-detach-controller') return 'Attach/detach controller';
  const host = instance.includes('/') ? instance.slice(instance.indexOf('/') + 1) : '';
  if (component === 'kubelet') return `Kubelet on ${host}`;
  return `${component}${host ? ` on ${host}` : ''}`;
}
