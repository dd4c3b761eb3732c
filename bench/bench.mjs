// npm run bench: figures, not assertions. Runs on the compiled library (npm run build:lib first; npm
// ci does it). Ratios are measured side by side in one run because machines here are noisy.
import { performance } from 'node:perf_hooks';
import { createActor, setup, assign } from 'xstate';
import { runScenario } from '../dist/lib/machines/index.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const sizes = (args.get('replicas') ?? '10,100,1000,10000').split(',').map(Number);

function bareXStateRate(n) {
  // a machine of the same shape as a component: a few states, an assign, events with payloads
  const m = setup({ types: {} }).createMachine({
    id: 'bare', initial: 'a', context: { n: 0 },
    states: {
      a: { on: { 'x.happened': { target: 'b', actions: assign({ n: ({ context }) => context.n + 1 }) } } },
      b: { on: { 'x.happened': { target: 'a', actions: assign({ n: ({ context }) => context.n + 1 }) } } },
    },
  });
  const actor = createActor(m).start();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) actor.send({ type: 'x.happened', now: i });
  const ms = performance.now() - t0;
  return n / (ms / 1000);
}

function simRate(replicas) {
  const t0 = performance.now();
  const trace = runScenario('statefulset-rollout', { replicas, recordObjects: false });
  const ms = performance.now() - t0;
  return { ms, events: trace.stats.events, steps: trace.stats.steps, rate: trace.stats.events / (ms / 1000) };
}

const fmt = (x) => x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)}k` : x.toFixed(0);

// warm up the JIT on both sides
bareXStateRate(50_000);
simRate(10);

const bare = bareXStateRate(300_000);
const sim = simRate(100);
console.log('Event dispatch (one run, side by side)');
console.log(`  bare XState actor.send            ${fmt(bare)} events/s`);
console.log(`  simulation (statefulset-rollout)  ${fmt(sim.rate)} machine events/s (${sim.events} events, ${sim.steps} steps, ${sim.ms.toFixed(0)} ms)`);
console.log(`  cost per event, simulation / bare ${(bare / sim.rate).toFixed(2)}x  (target <= 2x)`);
console.log('');
console.log('statefulset-rollout (recordObjects off)');
console.log('  replicas   wall ms   events     steps     ms per replica');
let prev;
for (const n of sizes) {
  const r = simRate(n);
  console.log(`  ${String(n).padStart(8)} ${r.ms.toFixed(0).padStart(9)} ${String(r.events).padStart(9)} ${String(r.steps).padStart(9)} ${(r.ms / n).toFixed(3).padStart(12)}${prev ? `   x${(r.ms / prev.ms).toFixed(1)} time for x${(n / prev.n).toFixed(0)} replicas` : ''}`);
  prev = { ...r, n };
}
