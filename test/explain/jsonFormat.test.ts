/**
 * Kubernetes components run with --logging-format=json print each klog call as one JSON object
 * (k8s.io/component-base/logs/json: "ts", "caller" dir/file.go:line, "msg", "v" on info records, "err"
 * on error records that have an error, then the call's key/value pairs). The explainer reads such a record as the text line
 * the same call prints. Here every line of every scenario's 1.30 trace is turned into that JSON form,
 * with code written for this test from the format's description, not the explainer's.
 */
import { describe, expect, it } from 'vitest';
import { buildKnowledge, explainText, runScenario, SCENARIOS, type Knowledge } from '../../src/machines/index.ts';

const knowledge: Knowledge = buildKnowledge();
const HEADER = /^([IWEF])(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{6})\s+\d+ ([\w.-]+\.go):(\d+)\] (.*)$/s;
const QUOTED = /^"((?:[^"\\]|\\.)*)"/;
const KEY = /^ ([\w.-]+)=/;

/** The length of the value at the start of `t`: a quoted string, a bracketed JSON value (nested), or a bare word. */
function valueLength(t: string): number {
  if (t.startsWith('"')) return /^"(?:[^"\\]|\\.)*"/.exec(t)?.[0].length ?? -1;
  if (t.startsWith('{') || t.startsWith('[')) {
    let depth = 0;
    let inString = false;
    for (let i = 0; i < t.length; i++) {
      const ch = t[i]!;
      if (inString) { if (ch === '\\') i++; else if (ch === '"') inString = false; continue; }
      if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth++;
      else if ((ch === '}' || ch === ']') && --depth === 0) return i + 1;
    }
    return -1;
  }
  return /^[^\s"]+/.exec(t)?.[0].length ?? -1;
}

/** The JSON record a klog text line stands for, or null for a line this small reader cannot take apart (multi-line values). */
function asJson(posted: string): string | null {
  // (a journald prefix stays: journald stores the JSON record as the line's message)
  const at = posted.search(/[IWEF]\d{4} \d{2}:/);
  if (at < 0) return null;
  const line = posted.slice(at);
  const h = HEADER.exec(line);
  if (!h) return null;
  const [, sev, mo, d, hh, mi, ss, us, file, ln, rest] = h;
  const ts = Date.UTC(2024, Number(mo) - 1, Number(d), Number(hh), Number(mi), Number(ss)) + Number(us) / 1000;
  const rec: Record<string, unknown> = { ts, caller: `pkg/${file}:${ln}` };
  const q = QUOTED.exec(rest!);
  if (!q) {
    rec.msg = rest;
  } else {
    rec.msg = JSON.parse(`"${q[1]}"`);
    let tail = rest!.slice(q[0].length);
    while (tail.length) {
      const key = KEY.exec(tail);
      const n = key ? valueLength(tail.slice(key[0].length)) : -1;
      if (!key || n < 0) return null;
      const v = tail.slice(key[0].length, key[0].length + n);
      // (a Go value klog printed with %+v, "{Name:x}", is no JSON: the JSON format would print it as an object; kept as text)
      let value: unknown = v;
      if (v.startsWith('"') || v.startsWith('{') || v.startsWith('[')) { try { value = JSON.parse(v); } catch { /* as text */ } }
      rec[key[1]!] = value;
      tail = tail.slice(key[0].length + n);
    }
  }
  // (an info record carries its verbosity; an error record none, and "err" only when the call passed an error)
  if (sev !== 'E') rec.v = 0;
  return posted.slice(0, at) + JSON.stringify(rec);
}

describe('the JSON logging format', () => {
  it('the converter above writes what the format says (a structured call keeps its pairs; an Infof its text)', () => {
    expect(asJson('I0102 03:04:05.006007       1 reconciler.go:360] "attacherDetacher.AttachVolume started" volume={"name":"v"} nodeName="n1"'))
      .toBe('{"ts":1704164645006.007,"caller":"pkg/reconciler.go:360","msg":"attacherDetacher.AttachVolume started","volume":{"name":"v"},"nodeName":"n1","v":0}');
    expect(asJson('E0102 03:04:05.006007       1 csi_attacher.go:1] attach failed: boom'))
      .toBe('{"ts":1704164645006.007,"caller":"pkg/csi_attacher.go:1","msg":"attach failed: boom"}');
  });

  it('every line of every scenario (1.30), printed as JSON, gets the stage and component of its text form', () => {
    let compared = 0;
    const skipped: string[] = [];
    const wrong: string[] = [];
    for (const s of SCENARIOS) {
      const logs = runScenario(s.id, { k8s: '1.30' }).steps.flatMap((st) => (st.log ? [st.log] : []));
      const pairs = logs.flatMap((l) => { const j = asJson(l); if (!j) skipped.push(l.slice(0, 120)); return j ? [[l, j] as const] : []; });
      const text = explainText(pairs.map(([l]) => l).join('\n'), knowledge).lines;
      const json = explainText(pairs.map(([, j]) => j).join('\n'), knowledge).lines;
      pairs.forEach(([l], i) => {
        compared++;
        const a = text[i]!, b = json[i]!;
        if (a.stage !== b.stage || a.component !== b.component || b.match !== 'catalog') wrong.push(`${s.id}: ${a.stage}/${a.component} vs ${b.stage}/${b.component}/${b.match}: ${l.slice(0, 140)}`);
      });
    }
    expect(compared).toBeGreaterThan(2000);
    expect(skipped).toEqual([]);
    expect(wrong.slice(0, 20)).toEqual([]);
  });
});
