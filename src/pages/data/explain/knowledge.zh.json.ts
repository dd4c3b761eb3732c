/**
 * /data/explain/knowledge.zh.json: the explainer's knowledge for /zh/explain/, its texts in Chinese
 * (buildKnowledge with lang 'zh'): the same formats and steps, Chinese summaries and explanations.
 */
import type { APIRoute } from 'astro';
import { buildKnowledge } from '../../../machines/explain/knowledge.ts';

export const GET: APIRoute = () =>
  new Response(JSON.stringify(buildKnowledge({ lang: 'zh' })), { headers: { 'content-type': 'application/json; charset=utf-8' } });
