/**
 * One JSON file per scenario and version: the flow model the player fetches.
 * /data/flows/<scenario>.<k8s>.json
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { flowModel, SITE_SCENARIOS } from '../../../components/flows/data.ts';
import type { ProfileId } from '../../../machines/index.ts';

export const getStaticPaths = (() =>
  SITE_SCENARIOS.flatMap((s) => s.versions.map((k8s) => ({ params: { flow: `${s.id}.${k8s}` }, props: { id: s.id, k8s } })))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => {
  const { id, k8s } = props as { id: string; k8s: ProfileId };
  return new Response(JSON.stringify(flowModel(id, k8s)), { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
