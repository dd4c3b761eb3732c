/**
 * Quoted real lines back to simulated steps: every line quoted from seed 000 lands on a step of
 * pod-migration --k8s 1.20 that prints the same message, and that step's log line has the same
 * klog file:line and severity.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { identifyLine, locateQuotedLines, parseKlog, parseQuotedLog, runScenario } from '../../src/machines/index.ts';

const quoted = parseQuotedLog(readFileSync(new URL('../../src/data/seeds/seed-000.log', import.meta.url), 'utf8'));

describe('locateQuotedLines', () => {
  const trace = runScenario('pod-migration', { k8s: '1.20' });
  const found = locateQuotedLines(trace, quoted);

  it('finds a step for every quoted seed 000 line, in increasing order per stream', () => {
    expect(quoted.length).toBe(46);
    const missing = quoted.filter((_, i) => found[i]!.step === undefined).map((q) => q.line.slice(0, 100));
    expect(missing).toEqual([]);
    const last = new Map<string, number>();
    quoted.forEach((q, i) => {
      const step = found[i]!.step!;
      expect(step).toBeGreaterThan(last.get(q.stream) ?? 0);
      last.set(q.stream, step);
    });
  });

  it('the step prints the same message at the same file:line with the same severity', () => {
    quoted.forEach((q, i) => {
      const st = trace.steps[found[i]!.step! - 1]!;
      const a = parseKlog(q.line)!;
      const b = parseKlog(st.log!)!;
      expect([b.file, b.line, b.severity]).toEqual([a.file, a.line, a.severity]);
      expect(st.msg).toBe(found[i]!.msg);
    });
  });

  it('a line that is not a known message gets no step; a non-klog line is not identified', () => {
    const r = locateQuotedLines(trace, [{ stream: 'kube-controller-manager', line: 'I0111 14:58:08.573794   1 nothing.go:1] hello' }]);
    expect(r).toEqual([{}]);
    expect(identifyLine('just some text')).toEqual([]);
    expect(parseKlog('E0111 14:58:08.573794   21944 x.go:12] boom')?.severity).toBe('E');
  });
});
