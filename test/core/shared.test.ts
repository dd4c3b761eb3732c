import { describe, expect, it } from 'vitest';
import { goDuration, goQuote, goTimeString, sortedJson } from '../../src/machines/shared/goFormat.ts';
import { journaldPrefix, klogHeader } from '../../src/machines/shared/klog.ts';
import { attacherFinalizer, uniqueVolumeName, volumeAttachmentName } from '../../src/machines/shared/names.ts';
import { renderMessage } from '../../src/machines/shared/messages.ts';
import { complete, findOperation, isOperationPending, isOperationSafeToRetry, keyString, run, type Operation, type OperationKey, type PendingOperations } from '../../src/machines/shared/nestedPendingOperations.ts';
import fc from 'fast-check';
import { nextDurationBeforeRetry } from '../../src/machines/shared/timing.ts';
import { createRng } from '../../src/machines/shared/rng.ts';

describe('Go formatting', () => {
  it('prints durations as time.Duration.String does', () => {
    expect(goDuration(500e6)).toBe('500ms');
    expect(goDuration(4e9)).toBe('4s');
    expect(goDuration(122e9)).toBe('2m2s');
    expect(goDuration(360e9)).toBe('6m0s');
    expect(goDuration(189_597_303)).toBe('189.597303ms');
    expect(goDuration(64e9)).toBe('1m4s');
    expect(goDuration(1_500_000_000)).toBe('1.5s');
    expect(goDuration(3_600e9)).toBe('1h0m0s');
    expect(goDuration(0)).toBe('0s');
  });

  it('quotes strings as strconv.Quote does', () => {
    expect(goQuote('a "b" \\c')).toBe('"a \\"b\\" \\\\c"');
    expect(goQuote('line\nnext\t')).toBe('"line\\nnext\\t"');
    // plain text takes the short way; control characters and DEL anywhere still take Go's escapes
    expect(goQuote('pvc-1/mount')).toBe('"pvc-1/mount"');
    expect(goQuote('a\x01b\x7f')).toBe('"a\\x01b\\x7f"');
    expect(goQuote('µs…')).toBe('"µs…"');
    // every escape strconv has a letter for (quote.go appendEscapedRune): \a \b \f \n \r \t \v
    expect(goQuote('\x07\b\f\n\r\t\v')).toBe('"\\a\\b\\f\\n\\r\\t\\v"');
  });

  it('prints the "No retries permitted until" time exactly in the shape of seed 000', () => {
    // seed 000: 2023-01-11 14:58:19.380344104 +0800 CST m=+132526.556747154
    const epochUs = Date.parse('2023-01-11T14:58:19.380344+08:00') * 1000 + 344 % 1000;
    const text = goTimeString(Date.parse('2023-01-11T06:58:19.380Z') * 1000 + 344, 480, 'CST', 104, 132526_556747);
    expect(text).toBe('2023-01-11 14:58:19.380344104 +0800 CST m=+132526.556747104');
    expect(epochUs).toBeGreaterThan(0);
  });

  it('sorts JSON keys like Go marshals a map', () => {
    expect(sortedJson({ volume_id: 'd', node_id: 'n', a: { z: 1, b: [2, { y: 1, x: 0 }] } })).toBe('{"a":{"b":[2,{"x":0,"y":1}],"z":1},"node_id":"n","volume_id":"d"}');
  });
});

describe('klog', () => {
  it('formats the header with the PID right-aligned in 7 columns', () => {
    const t = Date.parse('2023-01-11T06:58:14.257759Z') * 1000 + 759 % 1000 - 759 + 257759 % 1000; // µs precision below
    const us = Date.parse('2023-01-11T06:58:14Z') * 1000 + 257759;
    expect(klogHeader('I', us, { pid: 1, tzOffsetMin: 0 }, 'controller.go', 198)).toBe('I0111 06:58:14.257759       1 controller.go:198] ');
    expect(klogHeader('E', us, { pid: 20721, tzOffsetMin: 480 }, 'nestedpendingoperations.go', 301)).toBe('E0111 14:58:14.257759   20721 nestedpendingoperations.go:301] ');
    // lines of two time zones taking turns within one second, and the next second
    expect(klogHeader('I', us + 1, { pid: 1, tzOffsetMin: 0 }, 'a.go', 1)).toBe('I0111 06:58:14.257760       1 a.go:1] ');
    expect(klogHeader('I', us + 742_241, { pid: 1, tzOffsetMin: 480 }, 'a.go', 1)).toBe('I0111 14:58:15.000000       1 a.go:1] ');
    expect(klogHeader('I', us + 742_240, { pid: 1, tzOffsetMin: 0 }, 'a.go', 1)).toBe('I0111 06:58:14.999999       1 a.go:1] ');
    expect(t).toBeTypeOf('number');
  });

  it('adds the journald prefix for host daemons', () => {
    const us = Date.parse('2023-01-11T06:58:08.573794Z') * 1000;
    expect(journaldPrefix(us, { pid: 21944, tzOffsetMin: 480, journald: { host: 'VM-61-164-centos', ident: 'kubelet' } }))
      .toBe('Jan 11 14:58:08 VM-61-164-centos kubelet[21944]: ');
  });

  it('renders structured messages with the message quoted as a whole', () => {
    expect(renderMessage({ file: 'x.go', line: 1, msg: 'MountVolume started for volume {v:q}', kv: 'pod={pod:q}' }, { v: 'pvc-1', pod: 'ns/p' }))
      .toBe('"MountVolume started for volume \\"pvc-1\\"" pod="ns/p"');
  });
});

describe('names', () => {
  it('computes the VolumeAttachment names of seed 000', () => {
    expect(volumeAttachmentName('disk-adge0gvc', 'com.tencent.cloud.csi.cbs', '11.142.61.164')).toBe('csi-3a3640a23315b682265e8a33ea96b28fa5166767781a3c1f181c6df9e93fd7df');
    expect(volumeAttachmentName('disk-adge0gvc', 'com.tencent.cloud.csi.cbs', '11.142.60.212')).toBe('csi-ef62fd617656080205af907030d51be08f25b43341a98b53fd436db24689accd');
  });

  it('sanitizes the attacher finalizer as external-attacher does', () => {
    expect(attacherFinalizer('csi.vsphere.vmware.com')).toBe('external-attacher/csi-vsphere-vmware-com');
    expect(attacherFinalizer('weird.')).toBe('external-attacher/weird-X');
    expect(uniqueVolumeName('d', 'h')).toBe('kubernetes.io/csi/d^h');
  });
});

describe('nestedpendingoperations', () => {
  const key = { volumeName: 'v', podName: '', nodeName: '' };
  it('backs off 500ms, doubling, capped at 2m2s', () => {
    const seq: number[] = [];
    let d = 0;
    for (let i = 0; i < 10; i++) { d = nextDurationBeforeRetry(d); seq.push(d / 1000); }
    expect(seq).toEqual([500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 122000, 122000]);
  });

  it('refuses a second operation on the same volume and retries only after the backoff', () => {
    let ops: PendingOperations = {};
    const r1 = run(ops, key, 'verify', 0);
    expect(r1.started).toBe(true);
    if (r1.started) ops = r1.ops;
    expect(run(ops, { ...key, podName: 'p' }, 'mount', 1).started).toBe(false);
    const c = complete(ops, key, true, 1000);
    expect(c.durationBeforeRetry).toBe(500_000);
    expect(run(c.ops, key, 'verify', 2000)).toEqual({ started: false, reason: 'ExponentialBackoff', retryAt: 501_000 });
    expect(isOperationSafeToRetry(c.ops, key, 'verify', 2000)).toBe(false);
    expect(isOperationSafeToRetry(c.ops, key, 'verify', 501_000)).toBe(true);
    expect(run(c.ops, key, 'verify', 501_000).started).toBe(true);
  });

  it('findOperation and isOperationPending answer as upstream\'s isOperationExists does (an exact key first, else the first conflicting one in table order; an empty pod or node matches any), the first time a table is asked (a scan) and every later time (its index)', () => {
    const name = fc.constantFrom('', 'a', 'b');
    const opKey = fc.record({ volumeName: fc.constantFrom('v1', 'v2'), podName: name, nodeName: name });
    const matches = (a: OperationKey, b: OperationKey): boolean => a.volumeName === b.volumeName
      && (a.podName === '' || b.podName === '' || a.podName === b.podName) && (a.nodeName === '' || b.nodeName === '' || a.nodeName === b.nodeName);
    fc.assert(fc.property(fc.array(fc.record({ key: opKey, pending: fc.boolean() }), { maxLength: 8 }), fc.array(opKey, { minLength: 1, maxLength: 4 }), (entries, keys) => {
      const ops: Record<string, Operation> = {};
      for (const e of entries) ops[keyString(e.key)] = { key: e.key, operationName: 'op', pending: e.pending, lastErrorTime: 0, durationBeforeRetry: 0 };
      const table: PendingOperations = ops;
      const list = Object.values(table);
      // each question twice: the first of a new table is a scan, the later ones read its index
      for (let round = 0; round < 2; round++) {
        for (const k of keys) {
          expect(findOperation(table, k)).toBe(table[keyString(k)] ?? list.find((o) => matches(o.key, k)));
          expect(isOperationPending(table, k)).toBe(list.some((o) => o.pending && matches(o.key, k)));
        }
      }
    }), { numRuns: 300 });
  });
});

describe('rng', () => {
  it('gives the same sequence for the same seed and a different one for another seed', () => {
    const a = createRng(42), b = createRng(42), c = createRng(43);
    const xs = [a.uuid(), a.int(0, 1000), a.alnum(8)];
    expect([b.uuid(), b.int(0, 1000), b.alnum(8)]).toEqual(xs);
    expect(c.uuid()).not.toBe(xs[0]);
    expect(xs[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('sendChecked', async () => {
  const { createActor } = await import('xstate');
  const { sendChecked, csiVolumeLifecycleMachine } = await import('../../src/machines/index.ts');
  it('sends an event the machine can take', () => {
    const a = createActor(csiVolumeLifecycleMachine, { input: { stageUnstage: true } }).start();
    sendChecked(a, { type: 'csi.createVolume' });
    expect(a.getSnapshot().value).toBe('CREATED');
  });
  it('refuses, in one sentence, an event the machine cannot take in its state', () => {
    const a = createActor(csiVolumeLifecycleMachine, { input: { stageUnstage: true } }).start();
    expect(() => sendChecked(a, { type: 'csi.nodePublishVolume', targetPath: '/t' } as never)).toThrow(/in state "absent" cannot take "csi.nodePublishVolume"/);
  });
});

describe('GetNodeHostIPs and the Secret helpers (pkg/util/node, protosanitizer, getCredentials)', () => {
  it('takes the first InternalIP, else the first ExternalIP, skips what is not an IP, and adds the first of the other family', async () => {
    const { getNodeHostIPs, isIPv4 } = await import('../../src/machines/shared/k8s.ts');
    const node = (addresses: Array<[string, string]>) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { addresses: addresses.map(([type, address]) => ({ type, address })) } }) as never;
    expect(getNodeHostIPs(node([['Hostname', 'n'], ['ExternalIP', '203.0.113.7'], ['InternalIP', '10.0.1.11']]))).toEqual(['10.0.1.11']);
    expect(getNodeHostIPs(node([['Hostname', 'n'], ['ExternalIP', '203.0.113.7']]))).toEqual(['203.0.113.7']);
    expect(getNodeHostIPs(node([['InternalIP', 'node-1'], ['ExternalIP', '203.0.113.7']]))).toEqual(['203.0.113.7']);
    expect(getNodeHostIPs(node([['InternalIP', '10.0.1.11'], ['InternalIP', 'fd00::11'], ['InternalIP', '10.0.1.12']]))).toEqual(['10.0.1.11', 'fd00::11']);
    expect(getNodeHostIPs(node([['InternalIP', 'fd00::11'], ['ExternalIP', '203.0.113.7']]))).toEqual(['fd00::11', '203.0.113.7']);
    expect(getNodeHostIPs(node([['Hostname', 'n']]))).toEqual([]);
    expect(getNodeHostIPs(undefined)).toEqual([]);
    for (const ok of ['10.0.0.1', '255.255.255.255', '0.0.0.0']) expect([ok, isIPv4(ok)]).toEqual([ok, true]);
    for (const bad of ['256.1.1.1', '10.0.0', '10.0.0.1.5', 'x10.0.0.1', '10.0.0.1x', 'node-1', '']) expect([bad, isIPv4(bad)]).toEqual([bad, false]);
  });

  it('stripSecrets replaces every secret field, nested too, and leaves the request the driver gets as it was', async () => {
    const { stripSecrets } = await import('../../src/machines/shared/csi.ts');
    const request = { volume_id: 'v', secrets: { k: 'v' }, inner: { node_stage_secrets: { a: 'b' }, keep: 1 }, list: [{ secrets: {} }] };
    expect(stripSecrets(request)).toEqual({ volume_id: 'v', secrets: '***stripped***', inner: { node_stage_secrets: '***stripped***', keep: 1 }, list: [{ secrets: '***stripped***' }] });
    expect(request.secrets).toEqual({ k: 'v' });
    const plain = { volume_id: 'v', parameters: { a: 'b' } };
    expect(stripSecrets(plain)).toBe(plain);
  });

  it('a Secret\'s data is base64 in the object, and the credentials are the strings its bytes make', async () => {
    const { secretCredentials } = await import('../../src/machines/shared/k8s.ts');
    const { secret } = await import('../../src/machines/scenarios/objects.ts');
    const s = secret('default', 'creds', { userID: 'kubernetes', note: 'naïve ✓' });
    expect(s.data).toEqual({ userID: 'a3ViZXJuZXRlcw==', note: 'bmHDr3ZlIOKckw==' });
    expect(secretCredentials(s)).toEqual({ userID: 'kubernetes', note: 'naïve ✓' });
  });
});

describe('hasNodeRpcCapability (csi_client.go nodeSupportsCapability)', () => {
  it('finds an RPC capability by number or name in any of the shapes a NodeGetCapabilities answer takes, and skips entries that are not objects', async () => {
    const { hasNodeRpcCapability } = await import('../../src/machines/shared/csi.ts');
    // the Go client's shape (Type.Rpc.type), protobuf JSON (rpc.type) and a flat one (type), by number or by enum name
    expect(hasNodeRpcCapability({ capabilities: [{ Type: { Rpc: { type: 1 } } }] }, 1, 'STAGE_UNSTAGE_VOLUME')).toBe(true);
    expect(hasNodeRpcCapability({ capabilities: [{ rpc: { type: 'STAGE_UNSTAGE_VOLUME' } }] }, 1, 'STAGE_UNSTAGE_VOLUME')).toBe(true);
    expect(hasNodeRpcCapability({ capabilities: [{ type: 3 }] }, 3, 'EXPAND_VOLUME')).toBe(true);
    // a null entry in a hand-written answer (a scenario document, a fault) is no capability and no crash
    expect(hasNodeRpcCapability({ capabilities: [null, { rpc: { type: 1 } }] }, 1, 'STAGE_UNSTAGE_VOLUME')).toBe(true);
    expect(hasNodeRpcCapability({ capabilities: [null] }, 1, 'STAGE_UNSTAGE_VOLUME')).toBe(false);
    expect(hasNodeRpcCapability({ capabilities: [{ rpc: { type: 3 } }] }, 1, 'STAGE_UNSTAGE_VOLUME')).toBe(false);
    expect(hasNodeRpcCapability(undefined, 1, 'STAGE_UNSTAGE_VOLUME')).toBe(false);
  });
});
