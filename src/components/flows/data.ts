/**
 * Build-time glue between the simulation and the site: which scenarios the site shows, with which
 * run options, and their flow models (memoised: the chapter page, its embed and its JSON file all
 * read the same run). Runs in Node during `astro build`; nothing here ships to the browser.
 */
import { buildFlowModel, runScenario, SCENARIOS, PROFILE_IDS, type FlowModel, type ProfileId } from '../../machines/index.ts';

/** Per-scenario run options for the site. statefulset-rollout runs 8 replicas: a trace of 1000+ steps. */
const SITE_OPTIONS: Record<string, { replicas?: number }> = {
  'statefulset-rollout': { replicas: 8 },
};

export interface SiteScenario {
  id: string;
  title: string;
  versions: ProfileId[];
}

export const SITE_SCENARIOS: SiteScenario[] = SCENARIOS.map((s) => ({ id: s.id, title: s.title, versions: [...PROFILE_IDS] }));

export const DEFAULT_K8S: ProfileId = '1.30';

const cache = new Map<string, FlowModel>();

export function flowModel(id: string, k8s: ProfileId = DEFAULT_K8S): FlowModel {
  const key = `${id}.${k8s}`;
  let m = cache.get(key);
  if (!m) {
    m = buildFlowModel(runScenario(id, { k8s, captureWorld: true, ...SITE_OPTIONS[id] }));
    cache.set(key, m);
  }
  return m;
}

/** Where the JSON of a flow model is served from (src/pages/data/flows/[flow].json.ts). */
export const dataUrl = (id: string, k8s: ProfileId): string => `/data/flows/${id}.${k8s}.json`;

/** The props the FlowPlayer island takes for a scenario. */
export interface PlayerProps {
  scenario: string;
  title: string;
  versions: ProfileId[];
  initialK8s: ProfileId;
  /** steps per version, so the island can size its scrubber before the data arrives */
  totals: Record<string, number>;
  dataUrls: Record<string, string>;
  mode?: 'chapter' | 'embed';
}

export function playerProps(id: string, opts: { k8s?: ProfileId; mode?: 'chapter' | 'embed'; versions?: ProfileId[] } = {}): PlayerProps {
  const s = SITE_SCENARIOS.find((x) => x.id === id);
  if (!s) throw new Error(`unknown scenario "${id}" (known: ${SITE_SCENARIOS.map((x) => x.id).join(', ')})`);
  const versions = opts.versions ?? s.versions;
  return {
    scenario: id, title: s.title, versions, initialK8s: opts.k8s ?? DEFAULT_K8S,
    totals: Object.fromEntries(versions.map((v) => [v, flowModel(id, v).steps.length])),
    dataUrls: Object.fromEntries(versions.map((v) => [v, dataUrl(id, v)])),
    mode: opts.mode ?? 'chapter',
  };
}
