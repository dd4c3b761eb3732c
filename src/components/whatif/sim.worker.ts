/**
 * The simulation in the reader's browser: runs a scenario (a built-in one with the reader's what-if,
 * or a playground YAML) and answers with the flow model the player shows, as the build does for the
 * site's own flows (components/flows/data.ts). Off the main thread, so a long run never freezes the
 * page, and the page can stop a run that takes too long by terminating the worker.
 */
import { runScenario, type RunOptions } from '../../machines/scenarios/run.ts';
import { ScenarioError } from '../../machines/scenarios/errors.ts';
import { scenarioFromManifests } from '../../machines/scenarios/manifests.ts';
import { buildFlowModel } from '../../machines/view/buildFlow.ts';
import { flowModelZh } from '../../machines/view/flow.zh.ts';
import { runActionsOf } from '../../machines/view/whatif.ts';
import type { SimRequest, SimResponse, WorkerMessage } from './protocol.ts';

const scope = self as unknown as {
  postMessage(message: WorkerMessage): void;
  onmessage: ((event: MessageEvent<SimRequest>) => void) | null;
};

/** The site's own run options per scenario (components/flows/data.ts SITE_OPTIONS): the same flows. */
const SITE_REPLICAS: Record<string, number> = { 'statefulset-rollout': 8 };

function simulate(req: SimRequest): SimResponse {
  const t0 = performance.now();
  const notes: string[] = [];
  const options: RunOptions = { captureWorld: true };
  if (req.k8s) options.k8s = req.k8s;
  let scenario: Parameters<typeof runScenario>[0];
  if ('yaml' in req.scenario) {
    scenario = scenarioFromManifests(req.scenario.yaml);
  } else {
    scenario = req.scenario.id;
    const replicas = req.scenario.replicas ?? SITE_REPLICAS[req.scenario.id];
    if (replicas !== undefined) options.replicas = replicas;
  }
  if (req.whatIf) {
    options.faults = req.whatIf.faults;
    if (req.whatIf.driver && Object.keys(req.whatIf.driver).length) options.driver = req.whatIf.driver;
    if (req.original) {
      const { actions, problems } = runActionsOf(req.whatIf, req.original, req.lang);
      notes.push(...problems);
      options.actions = actions as unknown as NonNullable<RunOptions['actions']>;
    }
  }
  const trace = runScenario(scenario, options);
  const en = buildFlowModel(trace);
  const model = req.lang === 'zh' ? flowModelZh(en, trace) : en;
  const faults = trace.faults.map((f) => ({ fault: f.fault, hits: f.fired.length }));
  for (const f of faults) if (f.hits === 0) notes.push(`${f.fault}: never hit the story (no such call, or not while it was active)`);
  return { id: req.id, ok: true, model, faults, ms: Math.round(performance.now() - t0), notes };
}

scope.onmessage = (event) => {
  const req = event.data;
  try {
    const r = simulate(req);
    scope.postMessage(req.warmUp ? { id: req.id, warmedUp: true } : r);
  } catch (e) {
    if (e instanceof ScenarioError) {
      scope.postMessage({ id: req.id, ok: false, message: e.message, ...(e.line !== undefined ? { line: e.line } : {}), ...(e.column !== undefined ? { column: e.column } : {}) });
    } else {
      // a bug of ours, not the reader's: say so plainly, never a blank page
      scope.postMessage({ id: req.id, ok: false, message: `The simulation failed: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
};
