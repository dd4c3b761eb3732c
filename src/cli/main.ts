/**
 * csi-flows: list scenarios, print a scenario's trace (merged klog, JSON, or Mermaid), check a
 * scenario file, explain logs. Usage errors print one line on stderr and exit 2; `<command> --help`
 * prints every flag with an example and exits 0.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { parseArgs } from 'node:util';
import { jsonChunks } from './jsonChunks.ts';
import {
  buildKnowledge, CSI_RPCS, decodeInput, explainText, ExplainInputError, FaultSyntaxError, GRPC_CODES, parseFaultText, runScenario,
  scenarioFromManifests, scenarioFile, isProfileId, PROFILE_IDS, ScenarioError, SCENARIOS, compileScenario, toMermaidSequence, DRIVERS, parseDriverText,
  type ExplainedLine, type ExplainResult, type FaultReport, type ScenarioSpec, type Trace,
} from '../machines/index.ts';

/** the package version; bin/csi-flows.mjs passes the one in package.json */
let VERSION = '0.0.0';

/** What to check when a fault of each type hit nothing. */
const NEVER_HIT_HINT: Record<FaultReport['type'], string> = {
  csi: 'check the RPC, node or time window',
  api: 'check the verb, kind, name, component, node or time window',
  informer: 'check the component and kind',
  host: 'only a pod with an fsGroup makes the kubelet walk its volume, and only fsGroupChangePolicy: OnRootMismatch makes it look at the top directory first',
};

const FAULT_HELP = `Faults (--fault, repeatable; they hit from the story's start):
  <RPC>=<CODE>[x<count>]                      a CSI call fails (no count: every call)
      e.g. ControllerPublishVolume=DEADLINE_EXCEEDEDx2, NodeStageVolume=INTERNAL
  api:<verb>:<Kind>[/<name>][@<component>]=<HTTP code>|+<delay>[x<count>]
      an API request fails or lands late, e.g. api:patchStatus:Node@kubelet=+5s, api:create:VolumeAttachment=500x1
  informer:<component>[:<Kind>]=+<delay>      a component's informer lags, e.g. informer:attach-detach-controller:Node=+20s
  host:SetVolumeOwnership=+<delay>|<errno>[x<count>]
      the kubelet's walk giving a volume's files the pod's fsGroup is slow or fails, e.g. host:SetVolumeOwnership=EIOx1
      (errno: EIO, EACCES, ESTALE; only pods with an fsGroup walk, as in the fsgroup scenario)
  host:StatVolumeRoot=+<delay>|<errno>[x<count>]
      with fsGroupChangePolicy OnRootMismatch, the kubelet's stat of the volume's top directory fails: it logs
      the error and walks anyway, e.g. host:StatVolumeRoot=ESTALEx1
  RPCs:  ${Object.keys(CSI_RPCS).join(', ')}
  codes: ${Object.keys(GRPC_CODES).filter((c) => c !== 'OK').join(', ')}`;

const HELP: Record<string, string> = {
  main: `csi-flows ${VERSION}: Kubernetes CSI storage flows, simulated component by component with real klog output

usage:
  csi-flows scenarios [--json]                    the built-in scenarios
  csi-flows trace <scenario> [flags]              run a built-in scenario and print its trace
  csi-flows trace --file <scenario.yaml|-> [flags] run your own scenario (Kubernetes manifests + a csi-flows/v1 Scenario)
  csi-flows validate <scenario.yaml|->            check a scenario file
  csi-flows export <scenario> [flags]             print a built-in scenario as a scenario file, to start your own
  csi-flows explain [<file>|-] [--json]           explain kubelet / controller / sidecar logs
  csi-flows --version

Run csi-flows <command> --help for its flags and an example.`,
  scenarios: `usage: csi-flows scenarios [--json]

The built-in scenarios, one per line (id and title).
  --json     [{id, title, summary, seed?, takesReplicas, defaultReplicas?}]

example: csi-flows scenarios --json | jq -r '.[].id'`,
  trace: `usage: csi-flows trace <scenario> [flags]
       csi-flows trace --file <scenario.yaml|-> [flags]

Runs a scenario on the virtual clock and prints what happened.
  --file <path|->        run the scenario in a YAML file (- reads standard input) instead of a built-in one
  --k8s 1.20|1.30        the Kubernetes version profile (default: the scenario's, else 1.30)
  --format klog|json|mermaid
                         klog: the merged log, one line per step (default); json: the whole trace
                         (steps[].summary, steps[].log, initial.objects, final.objects, faults);
                         mermaid: the sequence diagram
  --seed N               seed of the simulation's randomness (same seed, byte-identical output; default 1)
  --replicas N           replicas, for scenarios that take them (statefulset-rollout)
  --fault <fault>        inject a fault (repeatable); a fault that never hits is reported on stderr
  --driver <caps>        change the driver's capabilities: attachRequired=true|false (its CSIDriver),
                         stageUnstage=true|false (STAGE_UNSTAGE_VOLUME); comma-separated or repeated
  --no-tags              klog lines without the [component/host] prefix

${FAULT_HELP}

examples:
  csi-flows trace attach --fault ControllerPublishVolume=DEADLINE_EXCEEDEDx2
  csi-flows trace pod-migration --k8s 1.20 --driver attachRequired=false
  csi-flows trace --file my-scenario.yaml --k8s 1.20 --format json`,
  validate: `usage: csi-flows validate <scenario.yaml|->

Checks a scenario file (Kubernetes manifests plus an optional csi-flows/v1 Scenario document) the way
trace --file reads it, and prints what it holds. A mistake is reported as <file>:<line>: <document>,
<field>: <what is wrong>, with exit status 2.

example: csi-flows validate my-scenario.yaml`,
  export: `usage: csi-flows export <scenario> [--k8s 1.20|1.30] [--replicas N]

Prints a built-in scenario as a scenario file: Kubernetes manifests and a csi-flows/v1 Scenario document
(nodes, driver, timeline, faults, sidecar flags). trace --file runs it to the built-in scenario's trace;
change it to make the scenario yours. The playground's menu offers the same files.
  --k8s 1.20|1.30        the version profile the file names (default: the scenario's, else 1.30)
  --replicas N           replicas, for scenarios that take them (statefulset-rollout)

example: csi-flows export attach > attach.yaml && csi-flows trace --file attach.yaml --fault NodeStageVolume=INTERNALx2`,
  explain: `usage: csi-flows explain [<file>|-] [--json] [--base-url <url>]

Reads kubelet, kube-controller-manager, CSI sidecar and driver logs (klog, journald, kubectl describe
events) and says for each line which component printed it, at which stage of the flow, which step of
our flows prints it, and where the flow stopped. Reads standard input with - or without a file.
  --json             [{line, component, stage, step, severity, explanation, ...}]
  --base-url <url>   print step links in full (e.g. https://csi-flows.example.org)

example: journalctl -u kubelet --since -1h | csi-flows explain - --base-url https://csi-flows.example.org`,
};

class UsageError extends Error {}

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** standard input, read whole (tests pass text) */
  stdin?: () => Uint8Array;
  stdinIsTTY?: boolean;
  /** the package version --version prints */
  version?: string;
}

/**
 * All of standard input. readFileSync(0) fails with EAGAIN when stdin is a non-blocking pipe or
 * socket whose writer has not written yet (`… | csi-flows explain -` on a busy machine; a child
 * process's stdin from Node): wait a little and read on until end of file.
 */
export function readStdin(): Buffer {
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(1 << 16);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') { Atomics.wait(pause, 0, 0, 10); continue; }
      if (code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

const defaultIo = (): Io => ({
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  stdin: readStdin,
  stdinIsTTY: !!process.stdin.isTTY,
});

export function main(argv: string[], io: Io | ((s: string) => void) = defaultIo()): number {
  const o: Io = typeof io === 'function' ? { ...defaultIo(), out: io } : io;
  if (o.version) VERSION = o.version;
  HELP.main = HELP.main!.replace(/^csi-flows [^:]*:/, `csi-flows ${VERSION}:`);
  try {
    const [command, ...rest] = argv;
    if (command === undefined) {
      o.err(HELP.main + '\n');
      return 2;
    }
    if (command === '--help' || command === '-h' || command === 'help') {
      const topic = rest[0];
      if (topic && !HELP[topic]) throw new UsageError(`no help for "${topic}" (commands: scenarios, trace, validate, export, explain)`);
      o.out((topic ? HELP[topic] : HELP.main) + '\n');
      return 0;
    }
    if (command === '--version' || command === '-V' || command === 'version') {
      o.out(`csi-flows ${VERSION}\n`);
      return 0;
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      if (!HELP[command]) throw new UsageError(`unknown command "${command}" (expected scenarios, trace, validate, export or explain)`);
      o.out(HELP[command] + '\n');
      return 0;
    }
    if (command === 'scenarios') return scenarios(rest, o);
    if (command === 'trace') return trace(rest, o);
    if (command === 'validate') return validate(rest, o);
    if (command === 'explain') return explain(rest, o);
    if (command === 'export') return exportScenario(rest, o);
    throw new UsageError(`unknown command "${command}" (expected scenarios, trace, validate, export or explain; see csi-flows --help)`);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ScenarioError || e instanceof ExplainInputError || isParseArgsError(e)) {
      o.err(`csi-flows: ${(e as Error).message.split('\n')[0]}\n`);
      return 2;
    }
    throw e;
  }
}

function isParseArgsError(e: unknown): boolean {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && (e as unknown as { code: string }).code.startsWith('ERR_PARSE_ARGS');
}

function scenarios(args: string[], o: Io): number {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: false });
  const list = SCENARIOS.map((s) => ({
    id: s.id, title: s.title, summary: s.summary, ...(s.seed ? { seed: s.seed } : {}),
    takesReplicas: !!s.takesReplicas, ...(s.takesReplicas ? { defaultReplicas: s.defaultReplicas } : {}),
  }));
  if (values.json) o.out(JSON.stringify(list, null, 2) + '\n');
  else {
    const w = Math.max(...list.map((s) => s.id.length));
    for (const s of list) o.out(`${s.id.padEnd(w)}  ${s.title}\n`);
  }
  return 0;
}

function exportScenario(args: string[], o: Io): number {
  const { values, positionals } = parseArgs({ args, options: { k8s: { type: 'string' }, replicas: { type: 'string' } }, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'export needs a scenario id (csi-flows scenarios lists them)' : `export takes one scenario, got ${positionals.length}: ${positionals.join(' ')}`);
  const k8s = values.k8s;
  if (k8s !== undefined && !isProfileId(k8s)) throw new UsageError(`unknown --k8s "${k8s}" (known: ${PROFILE_IDS.join(', ')})`);
  const replicas = intOption('replicas', values.replicas);
  o.out(scenarioFile(positionals[0]!, { ...(k8s ? { k8s } : {}), ...(replicas !== undefined ? { replicas } : {}) }).yaml);
  return 0;
}

function intOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} expects a non-negative integer, got "${v}"`);
  return Number(v);
}

/** The text of a file or of standard input ("-"), with a clear message when it cannot be read. */
function readText(path: string, o: Io, what: string): string {
  if (path === '-') {
    if (o.stdinIsTTY) throw new UsageError(`${what} - reads standard input, but it is a terminal (pipe the file in, or give its path)`);
    return decodeInput(o.stdin!());
  }
  try {
    if (statSync(path).isDirectory()) throw new UsageError(`${path} is a directory, not a file`);
    return decodeInput(readFileSync(path));
  } catch (e) {
    if (e instanceof UsageError || e instanceof ExplainInputError) throw e;
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

/** "file:line: document, field: reason" for a scenario file's mistake. */
function inFile(file: string, e: ScenarioError): UsageError {
  const name = file === '-' ? '<stdin>' : file;
  const where = [e.document, e.field].filter(Boolean).join(', ');
  return new UsageError(`${name}${e.line !== undefined ? `:${e.line}` : ''}: ${where ? `${where}: ` : ''}${e.reason}`);
}

function readScenarioFile(file: string, o: Io): ScenarioSpec {
  let text: string;
  try { text = readText(file, o, 'the scenario file'); } catch (e) {
    if (e instanceof ExplainInputError) throw new UsageError(`${file === '-' ? '<stdin>' : file}: ${e.message}`);
    throw e;
  }
  try {
    return scenarioFromManifests(text);
  } catch (e) {
    if (e instanceof ScenarioError) throw inFile(file, e);
    throw e;
  }
}

function trace(args: string[], o: Io): number {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true,
    options: {
      k8s: { type: 'string' }, format: { type: 'string' }, replicas: { type: 'string' }, seed: { type: 'string' },
      fault: { type: 'string', multiple: true }, 'no-tags': { type: 'boolean' }, file: { type: 'string', short: 'f' },
      driver: { type: 'string', multiple: true },
    },
  });
  const file = values.file;
  if (file !== undefined && positionals.length > 0) throw new UsageError(`trace takes a scenario id or --file, not both (got "${positionals[0]}" and --file ${file})`);
  if (file === undefined && positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'trace needs a scenario id (see: csi-flows scenarios) or --file <scenario.yaml>' : `trace takes one scenario id, got ${positionals.length}`);
  const format = values.format ?? 'klog';
  if (!['klog', 'json', 'mermaid'].includes(format)) throw new UsageError(`--format must be klog, json or mermaid, got "${format}"`);
  const replicas = intOption('replicas', values.replicas);
  const seed = intOption('seed', values.seed);
  const faults = (values.fault ?? []).map((f) => {
    try { return parseFaultText(f); } catch (e) {
      if (e instanceof FaultSyntaxError) throw new UsageError(e.message.replace(/^bad fault /, 'bad --fault '));
      throw e;
    }
  });
  let driver = {};
  for (const d of values.driver ?? []) {
    try { driver = { ...driver, ...parseDriverText(d) }; } catch (e) { throw new UsageError(`bad --driver ${(e as Error).message}`); }
  }
  const scenario = file !== undefined ? readScenarioFile(file, o) : positionals[0]!;
  const runOptions = {
    ...(values.k8s !== undefined ? { k8s: values.k8s } : {}),
    ...(replicas !== undefined ? { replicas } : {}), ...(seed !== undefined ? { seed } : {}),
    faults, ...(Object.keys(driver).length ? { driver } : {}),
  };
  // json is written while the simulation runs (writeJson); the other formats need the whole trace
  const t: Trace = format === 'json' ? writeJson(scenario, runOptions, o) : runScenario(scenario, runOptions);
  if (format === 'mermaid') o.out(toMermaidSequence(t));
  else if (format === 'klog') {
    const tags = !values['no-tags'];
    const lines: string[] = [];
    for (const st of t.steps) if (st.log) lines.push(tags ? `[${st.component}/${st.host}] ${st.log}\n` : `${st.log}\n`);
    o.out(lines.join(''));
  }
  for (const f of t.faults) {
    if (f.fired.length === 0) o.err(`csi-flows: warning: fault ${f.fault} never hit: nothing in the story matched it (${NEVER_HIT_HINT[f.type]})\n`);
  }
  return 0;
}

function validate(args: string[], o: Io): number {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'validate needs a scenario file (or - for standard input)' : `validate takes one file, got ${positionals.length}`);
  const file = positionals[0]!;
  const spec = readScenarioFile(file, o);
  const s = compileScenario(spec);
  const data = s.build({ k8s: (s.k8s ?? '1.30'), seed: 1, replicas: 1 });
  const d = typeof data.driver === 'string' ? DRIVERS[data.driver]! : data.driver;
  const count = (xs: unknown[] | undefined, what: string) => `${xs?.length ?? 0} ${what}${(xs?.length ?? 0) === 1 ? '' : 's'}`;
  const names = (xs: Array<{ kind: string; metadata: { name: string } }> | undefined) => (xs ?? []).map((x) => `${x.kind} ${x.metadata.name}`).join(', ');
  const lines = [
    `${file === '-' ? '<stdin>' : file}: OK, scenario "${s.id}" on Kubernetes ${s.k8s ?? '1.30'}`,
    `  nodes: ${data.nodes.map((n) => n.name).join(', ')}`,
    `  driver: ${d.name} (${[
      d.controllerCapabilities.includes('PUBLISH_UNPUBLISH_VOLUME') ? 'attach' : 'no attach',
      d.nodeCapabilities.includes('STAGE_UNSTAGE_VOLUME') ? 'stage/unstage' : 'no stage/unstage',
    ].join(', ')})`,
    ...(spec.existing?.length ? [`  before the story: ${names(spec.existing)}`] : []),
    `  at the start: ${names(spec.objects) || 'nothing'}`,
    `  ${count(spec.actions, 'action')}, ${count(spec.faults, 'fault')}; the story runs ${(data.runFor - (data.recordFrom ?? 0)) / 1e6}s after a ${(data.recordFrom ?? 0) / 1e6}s warm-up`,
  ];
  o.out(lines.join('\n') + '\n');
  return 0;
}

/** Inputs above this size are refused: the explainer holds every line's result in memory. */
const MAX_INPUT_BYTES = 512 * 1024 * 1024;

function readInput(path: string | undefined, o: Io): Uint8Array {
  if (path === undefined || path === '-') {
    if (path === undefined && o.stdinIsTTY) throw new UsageError('explain needs a file, or log lines on standard input (csi-flows explain kubelet.log, or … | csi-flows explain -)');
    return o.stdin!();
  }
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new UsageError(`${path} is a directory, not a log file`);
    size = st.size;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  if (size > MAX_INPUT_BYTES) throw new UsageError(`${path} is ${(size / 2 ** 20).toFixed(0)} MiB; explain reads at most ${MAX_INPUT_BYTES / 2 ** 20} MiB (cut it first, e.g. with grep or tail)`);
  return readFileSync(path);
}

function explain(args: string[], o: Io): number {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' }, 'base-url': { type: 'string' } } });
  if (positionals.length > 1) throw new UsageError(`explain takes one file (or -), got ${positionals.length}`);
  let base: URL | undefined;
  if (values['base-url'] !== undefined) {
    try { base = new URL(values['base-url']); } catch { throw new UsageError(`--base-url must be a full URL such as https://csi-flows.example.org, got "${values['base-url']}"`); }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new UsageError(`--base-url must be an http or https URL, got "${values['base-url']}"`);
  }
  const text = decodeInput(readInput(positionals[0], o));
  const result = explainText(text, buildKnowledge());
  if (base) absolutise(result, base);
  if (values.json) {
    o.out(JSON.stringify(result.lines, null, 2) + '\n');
    return 0;
  }
  o.out(renderListing(result));
  return 0;
}

/** Step links in full, under the site's base URL (its path kept: https://host/docs/ + /flows/… → https://host/docs/flows/…). */
function absolutise(r: ExplainResult, base: URL): void {
  const root = base.href.endsWith('/') ? base.href : `${base.href}/`;
  const full = (u: string): string => new URL(u.replace(/^\//, ''), root).href;
  for (const l of r.lines) if (l.step) l.step = { ...l.step, url: full(l.step.url) };
  const s = r.summary;
  if (s.lastHealthy?.step) s.lastHealthy.step = { ...s.lastHealthy.step, url: full(s.lastHealthy.step.url) };
  if (s.nextExpected?.step) s.nextExpected.step = { ...s.nextExpected.step, url: full(s.nextExpected.step.url) };
}

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The readable listing: one entry per input line, then the summary. */
export function renderListing(r: ExplainResult): string {
  const lines: string[] = [];
  const w = String(r.lines.length).length;
  for (const l of r.lines) {
    const n = String(l.line).padStart(w);
    if (l.kind === 'blank') { lines.push(`${n}`); continue; }
    if (l.kind === 'continuation') { lines.push(`${n}  ${' '.repeat(44)}(continues line ${l.continues}) ${cut(l.text.trim(), 80)}`); continue; }
    if (l.kind === 'decoration' || l.kind === 'unrelated') { lines.push(`${n}  ${'-'.padEnd(44)}${cut(l.text.trim(), 100)}`); continue; }
    lines.push(`${n}  ${(l.severity ?? '·').padEnd(2)}${l.stage.padEnd(10)}${(l.component ?? '?').padEnd(26)}${l.match === 'guess' ? '(guess) ' : ''}${cut(l.text.trim(), 110)}`);
    lines.push(`${' '.repeat(w)}    ${explanationOf(l)}`);
    if (l.cause) lines.push(`${' '.repeat(w)}    cause: ${l.cause}`);
    if (l.next) lines.push(`${' '.repeat(w)}    check next: ${l.next}`);
    if (l.step) lines.push(`${' '.repeat(w)}    our flow: ${l.step.scenario} (${l.step.k8s}) step ${l.step.step} — ${l.step.url}`);
  }
  const s = r.summary;
  lines.push('', 'Summary', `  ${s.verdict}`);
  if (s.lastHealthy) lines.push(`  last healthy line: ${s.lastHealthy.line} (${s.lastHealthy.component}, ${s.lastHealthy.stage})${s.lastHealthy.step ? ` — ${s.lastHealthy.step.url}` : ''}`);
  if (s.stoppedAt) lines.push(`  stopped at line ${s.stoppedAt.line} (${s.stoppedAt.stage}): ${cut(s.stoppedAt.text.trim(), 140)}`);
  if (s.nextExpected) lines.push(`  next healthy line: "${s.nextExpected.summary}" from ${s.nextExpected.component}: ${s.nextExpected.where}${s.nextExpected.step ? ` — ${s.nextExpected.step.url}` : ''}`);
  return lines.join('\n') + '\n';
}

/**
 * Run the scenario and write its trace as JSON.stringify(trace, null, 2) gives it, byte for byte,
 * without holding it: each step goes to a temporary file as the simulation records it (a
 * 1000-replica rollout has ~140 000 steps, hundreds of MB as JSON), then the trace is written in
 * pieces of about 64 KiB with the steps copied back in their place. Returns the trace (its steps
 * left out).
 */
function writeJson(scenario: Parameters<typeof runScenario>[0], options: Parameters<typeof runScenario>[1], o: Io): Trace {
  const dir = mkdtempSync(join(tmpdir(), 'csi-flows-trace-'));
  try {
    const file = join(dir, 'steps.json');
    const fd = openSync(file, 'w');
    let pending = '';
    let count = 0;
    let t: Trace;
    try {
      t = runScenario(scenario, {
        ...options,
        onStep: (step) => {
          // an element of an array that is the value of a top-level key: indented by four spaces
          pending += (count++ ? ',\n    ' : '\n    ') + JSON.stringify(step, null, 2).replaceAll('\n', '\n    ');
          if (pending.length >= 1 << 16) { writeSync(fd, pending); pending = ''; }
        },
      });
      if (pending) writeSync(fd, pending);
    } finally {
      closeSync(fd);
    }
    // the steps' text, in place of the trace's (empty) steps array
    function* steps(): Generator<string> {
      if (count === 0) { yield '[]'; return; }
      yield '[';
      const rd = openSync(file, 'r');
      try {
        const chunk = Buffer.alloc(1 << 16);
        const text = new StringDecoder('utf8');
        for (let n = readSync(rd, chunk); n > 0; n = readSync(rd, chunk)) yield text.write(chunk.subarray(0, n));
        yield text.end();
      } finally {
        closeSync(rd);
      }
      yield '\n  ]';
    }
    let buf = '';
    for (const c of jsonChunks(t, '', { steps })) {
      buf += c;
      if (buf.length >= 1 << 16) { o.out(buf); buf = ''; }
    }
    o.out(buf + '\n');
    return t;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const explanationOf = (l: ExplainedLine): string => l.explanation;
