/**
 * /data/explain/knowledge.json: what the log explainer knows (message formats, Event reasons, the
 * steps printing them), built at build time from the machines' catalog and the traces of every
 * scenario. The /explain/ page's worker fetches it on first use; the simulation itself never ships.
 */
import type { APIRoute } from 'astro';
import { buildKnowledge } from '../../../machines/explain/knowledge.ts';

export const GET: APIRoute = () =>
  new Response(JSON.stringify(buildKnowledge()), { headers: { 'content-type': 'application/json; charset=utf-8' } });
