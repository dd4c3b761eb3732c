/**
 * Build-time glue between the simulation and the site: which scenarios the site shows, with which
 * run options, and their flow models (memoised: the chapter page, its embed and its JSON file all
 * read the same run). Runs in Node during `astro build`; nothing here ships to the browser.
 */
import type { PlayerText } from '../player/text.ts';
import { buildFlowModel, runScenario, SCENARIOS, PROFILE_IDS, type FlowModel, type ProfileId, type Trace } from '../../machines/index.ts';
import { flowModelZh } from '../../machines/view/flow.zh.ts';
import type { Lang } from '../site/i18n.ts';
import { PLAYER_TEXT_ZH } from '../player/text.zh.ts';
import { legendOf, type Legend } from '../player/model.ts';
import { SCENARIO_TITLES_ZH } from '../catalog/scenarios.zh.ts';

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

const cache = new Map<string, { model: FlowModel; trace: Trace }>();

function run(id: string, k8s: ProfileId): { model: FlowModel; trace: Trace } {
  const key = `${id}.${k8s}`;
  let r = cache.get(key);
  if (!r) {
    const trace = runScenario(id, { k8s, captureWorld: true, ...SITE_OPTIONS[id] });
    r = { model: buildFlowModel(trace), trace };
    cache.set(key, r);
  }
  return r;
}

export function flowModel(id: string, k8s: ProfileId = DEFAULT_K8S): FlowModel {
  return run(id, k8s).model;
}

const zhCache = new Map<string, FlowModel>();

/** The flow model in a page's language: the Chinese one has its steps' summaries and causes from the zh catalogs. */
export function flowModelIn(lang: Lang, id: string, k8s: ProfileId = DEFAULT_K8S): FlowModel {
  if (lang === 'en') return flowModel(id, k8s);
  const key = `${id}.${k8s}`;
  let m = zhCache.get(key);
  if (!m) {
    const r = run(id, k8s);
    m = flowModelZh(r.model, r.trace);
    zhCache.set(key, m);
  }
  return m;
}

/** Where the JSON of a flow model is served from (src/pages/data/flows/[flow].json.ts): <id>.<k8s>.json, <id>.<k8s>.zh.json. */
export const dataUrl = (id: string, k8s: ProfileId, lang: Lang = 'en'): string => `/data/flows/${id}.${k8s}${lang === 'zh' ? '.zh' : ''}.json`;

/** One flow a player can show: a scenario in one or more versions. */
export interface PlayerFlow {
  scenario: string;
  title: string;
  versions: ProfileId[];
  /** steps per version, so the island can size its scrubber before the data arrives */
  totals: Record<string, number>;
  /** the scrubber's legend per version, shown before the data arrives */
  legends?: Record<string, Legend>;
  dataUrls: Record<string, string>;
}

/**
 * The props the FlowPlayer island takes. `scenario`…`dataUrls` describe the first flow; a chapter
 * that walks through several scenarios in one player (ceph-rbd: create, clone, delete) passes them
 * all in `flows`, and the player offers a switch between them (deep link `?flow=<scenario>`).
 */
export interface PlayerProps extends PlayerFlow {
  initialK8s: ProfileId;
  /** the player's words in the page's language (English when absent) */
  text?: PlayerText;
  mode?: 'chapter' | 'embed' | 'present';
  flows: PlayerFlow[];
  /** a flow model to show as it is instead of fetching one from `dataUrls` (the playground's run) */
  model?: FlowModel;
  /** the scenario file `model` ran from: the what-if panel re-runs it (the playground) */
  yaml?: string;
}

function playerFlow(id: string, versions?: ProfileId[], lang: Lang = 'en'): PlayerFlow {
  const s = SITE_SCENARIOS.find((x) => x.id === id);
  if (!s) throw new Error(`unknown scenario "${id}" (known: ${SITE_SCENARIOS.map((x) => x.id).join(', ')})`);
  const vs = versions ?? s.versions;
  return {
    scenario: id, title: lang === 'zh' ? SCENARIO_TITLES_ZH[id] ?? s.title : s.title, versions: vs,
    totals: Object.fromEntries(vs.map((v) => [v, flowModel(id, v).steps.length])),
    legends: Object.fromEntries(vs.map((v) => [v, legendOf(flowModel(id, v))])),
    dataUrls: Object.fromEntries(vs.map((v) => [v, dataUrl(id, v, lang)])),
  };
}

export function playerProps(ids: string | string[], opts: { k8s?: ProfileId; mode?: 'chapter' | 'embed' | 'present'; versions?: ProfileId[]; lang?: Lang } = {}): PlayerProps {
  const lang = opts.lang ?? 'en';
  const flows = (Array.isArray(ids) ? ids : [ids]).map((id) => playerFlow(id, opts.versions, lang));
  if (!flows.length) throw new Error('playerProps needs at least one scenario id');
  return { ...flows[0]!, flows, initialK8s: opts.k8s ?? DEFAULT_K8S, mode: opts.mode ?? 'chapter', ...(lang === 'zh' ? { text: PLAYER_TEXT_ZH } : {}) };
}

/** The static paths of a page per scenario (/embed/<id>/, /present/<id>/, /present/<id>/notes/). */
export const scenarioPaths = (): Array<{ params: { id: string } }> => SITE_SCENARIOS.map((s) => ({ params: { id: s.id } }));
