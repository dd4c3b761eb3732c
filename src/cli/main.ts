/**
 * csi-flows: list scenarios, print a scenario's trace (merged klog, JSON, or Mermaid).
 * Usage errors print one line and exit 2.
 */
import { parseArgs } from 'node:util';
import { runScenario, ScenarioError, SCENARIOS, toMermaidSequence, type Trace } from '../machines/index.ts';

const USAGE = `usage:
  csi-flows scenarios [--json]
  csi-flows trace <scenario> [--k8s 1.20|1.30] [--format klog|json|mermaid] [--replicas N] [--seed N]
                              [--fault <RPC>=<CODE>[x<count>]]... [--no-tags]`;

class UsageError extends Error {}

export function main(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s)): number {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      out(USAGE + '\n');
      return command === undefined ? 2 : 0;
    }
    if (command === 'scenarios') return scenarios(rest, out);
    if (command === 'trace') return trace(rest, out);
    throw new UsageError(`unknown command "${command}" (expected scenarios or trace)`);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ScenarioError || isParseArgsError(e)) {
      process.stderr.write(`csi-flows: ${(e as Error).message.split('\n')[0]}\n`);
      return 2;
    }
    throw e;
  }
}

function isParseArgsError(e: unknown): boolean {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && (e as unknown as { code: string }).code.startsWith('ERR_PARSE_ARGS');
}

function scenarios(args: string[], out: (s: string) => void): number {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: false });
  const list = SCENARIOS.map((s) => ({
    id: s.id, title: s.title, summary: s.summary, ...(s.seed ? { seed: s.seed } : {}),
    takesReplicas: !!s.takesReplicas, ...(s.takesReplicas ? { defaultReplicas: s.defaultReplicas } : {}),
  }));
  if (values.json) out(JSON.stringify(list, null, 2) + '\n');
  else {
    const w = Math.max(...list.map((s) => s.id.length));
    for (const s of list) out(`${s.id.padEnd(w)}  ${s.title}\n`);
  }
  return 0;
}

function intOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} expects a non-negative integer, got "${v}"`);
  return Number(v);
}

function trace(args: string[], out: (s: string) => void): number {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true,
    options: {
      k8s: { type: 'string' }, format: { type: 'string' }, replicas: { type: 'string' }, seed: { type: 'string' },
      fault: { type: 'string', multiple: true }, 'no-tags': { type: 'boolean' },
    },
  });
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'trace needs a scenario id (see: csi-flows scenarios)' : `trace takes one scenario id, got ${positionals.length}`);
  const format = values.format ?? 'klog';
  if (!['klog', 'json', 'mermaid'].includes(format)) throw new UsageError(`--format must be klog, json or mermaid, got "${format}"`);
  const replicas = intOption('replicas', values.replicas);
  const seed = intOption('seed', values.seed);
  const t: Trace = runScenario(positionals[0]!, {
    ...(values.k8s !== undefined ? { k8s: values.k8s } : {}),
    ...(replicas !== undefined ? { replicas } : {}), ...(seed !== undefined ? { seed } : {}),
    faults: values.fault ?? [],
  });
  if (format === 'json') out(JSON.stringify(t, null, 2) + '\n');
  else if (format === 'mermaid') out(toMermaidSequence(t));
  else {
    const tags = !values['no-tags'];
    for (const st of t.steps) if (st.log) out(tags ? `[${st.component}/${st.host}] ${st.log}\n` : `${st.log}\n`);
  }
  return 0;
}
