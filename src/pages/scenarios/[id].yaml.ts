/**
 * /scenarios/<id>.yaml: each built-in scenario as a scenario file (scenarioFile), for the playground's
 * menu and for teams who start their own from a chapter's (`npx csi-flows trace --file <id>.yaml` runs
 * it to the chapter's trace).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { scenarioFile, SCENARIOS } from '../../machines/index.ts';

export const getStaticPaths: GetStaticPaths = () => SCENARIOS.map((s) => ({ params: { id: s.id } }));

export const GET: APIRoute = ({ params }) =>
  new Response(scenarioFile(String(params.id)).yaml, { headers: { 'Content-Type': 'application/yaml; charset=utf-8' } });
