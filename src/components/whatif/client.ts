/**
 * The page side of the simulation worker: one worker, started on the first request (its code loads
 * only then), reused for the next ones, and terminated (then started afresh) when a run takes longer
 * than the page allows, so a scenario that runs too long is stopped with a message, never a frozen tab.
 */
import type { SimRequest, SimResponse, WorkerMessage } from './protocol.ts';

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (r: SimResponse) => void>();

function start(): Worker {
  const w = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent<WorkerMessage>) => {
    if ('warmedUp' in e.data) {
      // the next warm-up run, unless the reader asked for a run meanwhile (it goes first)
      const next = warmUpQueue.shift();
      if (next && waiting.size === 0) w.postMessage(next);
      else warmUpQueue.length = 0;
      return;
    }
    const done = waiting.get(e.data.id);
    waiting.delete(e.data.id);
    done?.(e.data);
  };
  w.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    for (const [id, done] of waiting) done({ id, ok: false, message: `The simulation could not start: ${e.message || 'the worker failed to load'}` });
    waiting.clear();
    worker?.terminate();
    worker = null;
    warmedWith = null;
    warmUpQueue.length = 0;
  };
  return w;
}

/** Warm-up runs still to send, one at a time, each when the last has run (see prewarm). */
const warmUpQueue: SimRequest[] = [];

export interface SimulateOptions {
  /** stop the run after this long (ms) and answer with a message */
  timeoutMs?: number;
  /** the page's message for a stopped run ({s}: the seconds it was given) */
  tooLong?: string;
}

let warmedWith: string | null = null;
const WARM_UP_RUNS = 2;

/**
 * Start the worker ahead of a run (the what-if panel opens, the playground's page loads): fetching and
 * evaluating the simulation's code, then running it cold, is most of a first run's time, and the reader
 * is still choosing. With `warmUp` (the page's own flow), the worker also runs that (WARM_UP_RUNS
 * times): its code gets compiled and optimised, and the object versions the what-if will mostly share
 * get rendered, so the reader's first what-if runs about as fast as the next ones (first 115-318 ms,
 * next 103-210 ms per chapter here, npm run bench:whatif). Once per flow; a request sent meanwhile
 * waits for the warm-up run in progress only, and the rest are dropped.
 */
export function prewarm(warmUp?: Omit<SimRequest, 'id' | 'warmUp'>): void {
  worker ??= start();
  if (!warmUp) return;
  const { whatIf, original, ...plain } = warmUp;
  const key = JSON.stringify(plain);
  if (warmedWith === key) return;
  warmedWith = key;
  // twice: after one run the engine has compiled the simulation's code, after two it has optimised it
  // (the reader's first what-if ran ~1.5x slower than the next ones after a single warm-up run). The
  // last run practises a what-if when one is given (a fault: the fault injector's code, the other
  // flow's object versions and the departure's comparison), which a plain run leaves cold.
  // One at a time: a reader who asks for a run while one warms the worker waits for that one only,
  // not for the ones queued behind it, which are dropped.
  warmUpQueue.length = 0;
  for (let i = 0; i < WARM_UP_RUNS; i++) {
    const practice = i === WARM_UP_RUNS - 1 && whatIf ? { whatIf, ...(original ? { original } : {}) } : {};
    warmUpQueue.push({ ...plain, ...practice, id: nextId++, warmUp: true });
  }
  worker.postMessage(warmUpQueue.shift()!);
}

/** Run a scenario in the worker; resolves with the flow model or what is wrong (never rejects). */
export function simulate(req: Omit<SimRequest, 'id'>, options: SimulateOptions = {}): Promise<SimResponse> {
  const id = nextId++;
  const timeoutMs = options.timeoutMs ?? 20_000;
  worker ??= start();
  const w = worker;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      if (!waiting.has(id)) return;
      waiting.delete(id);
      // the only way to stop a synchronous run: the worker goes, the next request starts another
      w.terminate();
      if (worker === w) { worker = null; warmedWith = null; warmUpQueue.length = 0; }
      for (const [other, done] of waiting) done({ id: other, ok: false, message: 'Stopped with another run that took too long.' });
      waiting.clear();
      resolve({ id, ok: false, message: (options.tooLong ?? 'The scenario ran for more than {s} s and was stopped: shorten its runFor, or run it with csi-flows trace --file.').replace('{s}', String(Math.round(timeoutMs / 1000))) });
    }, timeoutMs);
    waiting.set(id, (r) => { clearTimeout(timer); resolve(r); });
    w.postMessage({ ...req, id } satisfies SimRequest);
  });
}
