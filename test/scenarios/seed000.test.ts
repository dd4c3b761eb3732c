/**
 * Seed 000 fidelity: with --k8s 1.20, the pod-migration scenario prints every log line the seed
 * quotes, in the same order per log stream, with the same wording, severity and source file:line.
 * Names, ids and times may differ. Lines are compared through the catalog's templates: each seed
 * line must match exactly one 1.20 message (literal text identical, placeholders free), and the
 * trace must print those messages as a subsequence of its lines for the same stream.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalog } from '../../src/machines/catalog.ts';
import { runScenario } from '../../src/machines/index.ts';
import { formatRegex } from '../../src/machines/shared/messages.ts';

const JOURNALD = /^[A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} \S+ \S+\[\d+\]: /;
const HEADER = /^([IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ ([\w.-]+\.go):(\d+)\] (.*)$/s;

interface Parsed { severity: string; file: string; line: number; message: string }

function parse(line: string): Parsed {
  const m = HEADER.exec(line.replace(JOURNALD, ''));
  if (!m) throw new Error(`not a klog line: ${line}`);
  return { severity: m[1]!, file: m[2]!, line: Number(m[3]), message: m[4]! };
}

/** the program that prints each of the fixture's streams */
const SOURCE: Record<string, string> = {
  'kube-controller-manager': 'kube-controller-manager', 'csi-attacher': 'csi-attacher', 'csi-driver-controller': 'csi-driver-controller',
};
const sourceOf = (stream: string): string => SOURCE[stream] ?? stream.split('@')[0]!;

/** the 1.20 catalog messages of that program a line can be */
function messageIds(p: Parsed, stream: string): string[] {
  return Object.entries(catalog).filter(([, def]) => {
    const f = def.formats['1.20'];
    return def.source === sourceOf(stream) && f && f.file === p.file && f.line === p.line
      && (f.severity ?? def.severity) === p.severity && formatRegex(f).test(p.message);
  }).map(([id]) => id);
}

const seed = readFileSync(new URL('../../src/data/seeds/seed-000.log', import.meta.url), 'utf8')
  .split('\n').filter((l) => l && !l.startsWith('#')).map((l) => {
    const [stream, line] = l.split('\t') as [string, string];
    return { stream, line, parsed: parse(line) };
  });

describe('pod-migration --k8s 1.20 reproduces seed 000', () => {
  const trace = runScenario('pod-migration', { k8s: '1.20' });
  // a step's log stream is its program's (trace.components[].source); kubelets are told apart by host
  const sourceOfInstance = new Map(trace.components.map((c) => [c.instance, c.source]));
  const streamOf = (instance: string, host: string): string => {
    const source = sourceOfInstance.get(instance)!;
    return source === 'kubelet' ? `kubelet@${host}` : source;
  };
  const printed = new Map<string, Array<{ id: string; log: string }>>();
  for (const st of trace.steps) {
    if (!st.log || !st.msg) continue;
    const s = streamOf(st.instance, st.host);
    (printed.get(s) ?? printed.set(s, []).get(s)!).push({ id: st.msg, log: st.log });
  }

  it.each(seed.map((s, i) => [i + 1, s.line.slice(0, 110), s] as const))('seed line %i is a known 1.20 message: %s', (_i, _l, s) => {
    expect(messageIds(s.parsed, s.stream)).toHaveLength(1);
  });

  for (const stream of [...new Set(seed.map((s) => s.stream))]) {
    it(`prints the seed's ${stream} lines in the same order`, () => {
      const want = seed.filter((s) => s.stream === stream).map((s) => messageIds(s.parsed, s.stream)[0]);
      const got = printed.get(stream) ?? [];
      let j = 0;
      const missing: string[] = [];
      for (const id of want) {
        while (j < got.length && got[j]!.id !== id) j++;
        if (j === got.length) { missing.push(id ?? '(unknown)'); break; }
        j++;
      }
      expect(missing, `not found in order; trace printed:\n${got.map((g) => g.log).join('\n')}`).toEqual([]);
    });
  }

  it('prints the same wording as the seed line, with the scenario\'s own names', () => {
    const tearDown = (printed.get('kubelet@11.142.61.164') ?? []).find((g) => /UnmountDevice succeeded/.test(g.log));
    expect(tearDown?.log).toMatch(/^Jan 11 14:58:\d\d VM-61-164-centos kubelet\[21944\]: I0111 14:58:\d\d\.\d{6}   21944 operation_generator\.go:869\] UnmountDevice succeeded for volume "pvc-4cde4524-6ba4-449c-891b-fe9ce8138e33" %!\(EXTRA string=UnmountDevice succeeded for volume "pvc-4cde4524-6ba4-449c-891b-fe9ce8138e33" \(UniqueName: "kubernetes\.io\/csi\/com\.tencent\.cloud\.csi\.cbs\^disk-adge0gvc"\) on node "11\.142\.61\.164" \)$/);
    const attach = (printed.get('csi-driver-controller') ?? []).find((g) => /ControllerPublishVolume/.test(g.log));
    expect(attach).toBeDefined();
    const req = (printed.get('csi-driver-controller') ?? []).find((g) => /GRPC request: \{"node_id":"ins-hrlnsway"/.test(g.log));
    expect(req?.log).toMatch(/GRPC request: \{"node_id":"ins-hrlnsway","volume_capability":\{"AccessType":\{"Mount":\{"fs_type":"ext4"\}\},"access_mode":\{"mode":1\}\},"volume_context":\{"diskType":"CLOUD_PREMIUM","storage\.kubernetes\.io\/csiProvisionerIdentity":"1672314114387-8081-com\.tencent\.cloud\.csi\.cbs"\},"volume_id":"disk-adge0gvc"\}$/);
  });
});
