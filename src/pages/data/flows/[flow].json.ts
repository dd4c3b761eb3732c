/**
 * One JSON file per scenario, version and language: the flow model the player fetches.
 * /data/flows/<scenario>.<k8s>.json, and /data/flows/<scenario>.<k8s>.zh.json for the /zh/ pages.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { flowModelIn, SITE_SCENARIOS } from '../../../components/flows/data.ts';
import type { ProfileId } from '../../../machines/index.ts';

export const getStaticPaths = (() =>
  SITE_SCENARIOS.flatMap((s) => s.versions.flatMap((k8s) => (['en', 'zh'] as const).map((lang) => ({
    params: { flow: `${s.id}.${k8s}${lang === 'zh' ? '.zh' : ''}` }, props: { id: s.id, k8s, lang },
  }))))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => {
  const { id, k8s, lang } = props as { id: string; k8s: ProfileId; lang: 'en' | 'zh' };
  return new Response(JSON.stringify(flowModelIn(lang, id, k8s)), { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
