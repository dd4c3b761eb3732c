import { describe, expect, it } from 'vitest';
import { formatRegex, renderMessage } from '../../src/machines/shared/messages.ts';
describe('formatRegex', () => {
it('matches every line a template can print, and real lines of the same message, but not other wording', () => {
  const f = { file: 'a', line: 1, text: 'UnmountDevice succeeded for volume {v:q} %!(EXTRA string=UnmountDevice succeeded for volume {v:q} (UniqueName: {u:q}) on node {n:q} )' };
  const r = formatRegex(f);
  expect(r.test(renderMessage(f, { v: 'pvc-XXX', u: 'a^b', n: '1.2' }))).toBe(true);
  expect(r.test('UnmountDevice succeeded for volume "pvc-XXX" %!(EXTRA string=UnmountDevice succeeded for volume "pvc-XXX" (UniqueName: "kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-adge0gvc") on node "11.142.61.164" )')).toBe(true);
  const s = { file: 'a', line: 1, msg: 'MountVolume started for volume {v:q} pod {p:q}', kv: 'pod={pod:q}' };
  expect(formatRegex(s).test(renderMessage(s, { v: 'x"y', p: 'p', pod: 'ns/p' }))).toBe(true);
  expect(formatRegex(s).test('"MountVolume started for volume \\"a\\" pod \\"b\\"" pod="ns/p"')).toBe(true);
  expect(formatRegex(s).test('"MountVolume begun for volume \\"a\\" pod \\"b\\"" pod="ns/p"')).toBe(false);
  const e = { file: 'a', line: 1, text: 'Operation for {key:q} failed. No retries permitted until {until} (durationBeforeRetry {d}). Error: {err:q}' };
  expect(formatRegex(e).test('Operation for "{volumeName:kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-XXX podName: nodeName:}" failed. No retries permitted until 2023-01-11 14:58:19.380344104 +0800 CST m=+132526.556747154 (durationBeforeRetry 500ms). Error: "Volume has not been added to the list of VolumesInUse in the node\'s volume status for volume \\"pvc-4cde4524-6ba4-449c-891b-fe9ce8138e33\\" (UniqueName: \\"kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-adge0gvc\\") pod \\"weixin-zixun-l3-vob-rbu-online-6\\" (UID: \\"e0d0fa80-cc4a-4d44-8fae-154aa8142e3a\\") "')).toBe(true);
});
});
