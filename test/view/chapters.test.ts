/**
 * The chapters' build-time helpers (src/components/chapter): the chapter list and its pages, step
 * queries and links, the seed files and their matching to simulated steps, the two-version
 * comparison, the ceph journal changes and the object views. Expected values come from the flow
 * models and the seed files themselves, read independently of the helper under test where possible.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { flowModel, SITE_SCENARIOS } from '../../src/components/flows/data.ts';
import { CHAPTERS, getChapter, neighbours, scenariosWithoutChapter } from '../../src/components/chapter/chapters.ts';
import { actorLabel, componentsOf, findStep, findSteps, playerHref, stepAnchor, stepSeverity, tryFindStep } from '../../src/components/chapter/steps.ts';
import { chapterOfFlow, stepHref } from '../../src/components/chapter/links.ts';
import { annotate, identifyHeaderless, klogSite, locateHeaderlessLines, locateKlogLines, parseSeedFile } from '../../src/components/chapter/seeds.ts';
import { seed000, seed004, seedFields, SEED_TEXT } from '../../src/components/chapter/seedData.ts';
import { alignRuns, ATTACH_DETACH_KEYS, isKeyStep } from '../../src/components/chapter/compare.ts';
import { journalStates } from '../../src/components/chapter/journal.ts';
import { objectAt, yamlLines } from '../../src/components/chapter/objects.ts';
import { parseKlog, parseQuotedLog } from '../../src/machines/index.ts';

const pagesDir = new URL('../../src/pages/flows/', import.meta.url);

describe('the chapter list', () => {
  it('has the eighteen chapters in the learning path\'s order, each with an MDX page whose frontmatter names it', () => {
    expect(CHAPTERS.map((c) => c.id)).toEqual([
      'provision', 'wffc-provision', 'attach', 'mount', 'teardown', 'register', 'multi-attach', 'no-attach', 'expand', 'snapshot', 'pod-migration', 'node-failure', 'ad-detach-backoff',
      'provision-failure', 'attach-failure', 'mount-failure', 'driver-not-registered', 'ceph-rbd',
    ]);
    const pages = readdirSync(pagesDir).filter((f) => f.endsWith('.mdx')).map((f) => f.replace(/\.mdx$/, '')).sort();
    expect(pages).toEqual(CHAPTERS.map((c) => c.id).sort());
    for (const c of CHAPTERS) {
      const text = readFileSync(new URL(`${c.id}.mdx`, pagesDir), 'utf8');
      const fm = parseYaml(/^---\n([\s\S]*?)\n---/.exec(text)![1]!) as { layout: string; chapter: string; learn: string[]; remember: string[] };
      expect(fm.chapter).toBe(c.id);
      expect(fm.layout).toBe('../../layouts/ChapterLayout.astro');
      expect(fm.learn.length).toBeGreaterThanOrEqual(3);
      expect(fm.remember.length).toBeGreaterThanOrEqual(3);
      for (const s of [...fm.learn, ...fm.remember]) expect(typeof s).toBe('string');
    }
  });

  it('every chapter scenario exists on the site, and no scenario belongs to two chapters', () => {
    const ids = new Set(SITE_SCENARIOS.map((s) => s.id));
    const all = CHAPTERS.flatMap((c) => c.scenarios);
    for (const s of all) expect(ids.has(s)).toBe(true);
    expect(new Set(all).size).toBe(all.length);
    expect(scenariosWithoutChapter().map((s) => s.id).sort()).toEqual(['statefulset-rollout']);
    expect(chapterOfFlow('no-attach')?.id).toBe('no-attach');
  });

  it('neighbours follow the order, with nothing before the first or after the last', () => {
    expect(neighbours('provision').prev).toBeUndefined();
    expect(neighbours('provision').next?.id).toBe('wffc-provision');
    expect(neighbours('ad-detach-backoff').prev?.id).toBe('node-failure');
    expect(neighbours('ceph-rbd').next).toBeUndefined();
    expect(() => getChapter('no-such')).toThrow(/unknown chapter "no-such"/);
  });
});

describe('step queries and links', () => {
  const attach = flowModel('attach', '1.30');
  // (1.20's kubelet verifies before the attach is done and fails, backing off; 1.30's waits for its cached node status)
  const attach20 = flowModel('attach', '1.20');

  it('finds a step by message, API call, RPC and occurrence, as the model has it', () => {
    const byMsg = findStep(attach, { msg: 'externalAttacher.attached' });
    expect(byMsg.msg).toBe('externalAttacher.attached');
    expect(attach.steps.slice(0, byMsg.i - 1).some((s) => s.msg === 'externalAttacher.attached')).toBe(false);
    const va = findStep(attach, { verb: 'create', apiKind: 'VolumeAttachment' });
    expect(va.api).toMatchObject({ verb: 'create', kind: 'VolumeAttachment', code: 201 });
    const publish = findStep(attach, { rpc: 'ControllerPublishVolume', kind: 'rpc-reply' });
    expect(publish.rpc?.method).toBe('/csi.v1.Controller/ControllerPublishVolume');
    expect(publish.rpc?.code).toBe('OK');
    const failures = findSteps(attach20, { msg: 'kubelet.operationFailed' });
    expect(failures.length).toBeGreaterThan(2);
    expect(findStep(attach20, { msg: 'kubelet.operationFailed', nth: -1 }).i).toBe(failures.at(-1)!.i);
    expect(findStep(attach20, { msg: 'kubelet.operationFailed', nth: 2 }).i).toBe(failures[1]!.i);
    expect(findStep(attach20, { msg: 'kubelet.operationFailed', after: failures[0]!.i }).i).toBe(failures[1]!.i);
  });

  it('a query that matches nothing throws with the query in the message', () => {
    expect(tryFindStep(attach, { msg: 'no.such.message' })).toBeUndefined();
    expect(() => findStep(attach, { msg: 'no.such.message' })).toThrow(/attach 1\.30 matches \{"msg":"no\.such\.message"\}/);
    expect(() => findStep(attach, { msg: 'externalAttacher.attached', nth: 99 })).toThrow(/1 candidate/);
  });

  it('player links carry flow only for multi-flow chapters and k8s only when asked', () => {
    expect(playerHref(7)).toBe('?step=7#player');
    expect(playerHref(57, { k8s: '1.20' })).toBe('?k8s=1.20&step=57#player');
    expect(stepHref('attach', 12)).toBe('?step=12#player');
    expect(stepHref('pod-migration', 57, '1.20')).toBe('?k8s=1.20&step=57#player');
    expect(stepHref('ceph-rbd-clone', 5)).toBe('?flow=ceph-rbd-clone&step=5#player');
    expect(chapterOfFlow('ceph-rbd-delete')?.id).toBe('ceph-rbd');
    expect(chapterOfFlow('force-detach')?.id).toBe('node-failure');
    expect(chapterOfFlow('statefulset-rollout')).toBeUndefined();
    expect(stepAnchor(3)).toBe('step-3');
    expect(stepAnchor(3, { scenario: 'ad-detach-backoff', k8s: '1.20' })).toBe('ad-detach-backoff-120-step-3');
  });

  it('labels actors and marks failures as text-bearing severities', () => {
    const user = attach.steps[0]!;
    expect(user.component).toBe('user');
    expect(actorLabel(user)).toBe('you');
    const kubelet = attach.steps.find((s) => s.component === 'kubelet')!;
    expect(actorLabel(kubelet)).toBe(`kubelet@${kubelet.host}`);
    expect(stepSeverity(findStep(attach20, { msg: 'kubelet.operationFailed' }))).toBe('E');
    expect(stepSeverity(findStep(attach, { msg: 'externalAttacher.attached' }))).toBeUndefined();
    const backoff = flowModel('ad-detach-backoff', '1.20');
    expect(stepSeverity(findStep(backoff, { rpc: 'ControllerUnpublishVolume', kind: 'rpc-reply', code: 'INTERNAL' }))).toBe('E');
    expect(componentsOf([attach])).not.toContain('user');
    expect(componentsOf([attach])).toEqual(expect.arrayContaining(['kube-scheduler', 'attach-detach-controller', 'external-attacher', 'kubelet', 'csi-controller-plugin']));
  });
});

describe('seed files', () => {
  it('parse with their header comments and scenario sections; parseQuotedLog reads the same lines', () => {
    for (const [which, text] of Object.entries(SEED_TEXT)) {
      const f = parseSeedFile(text);
      expect(f.header.join(' '), `seed ${which} header cites its seed`).toMatch(new RegExp(`seed ${which} \\(\\.\\./shared/seeds/${which}_\\*\\.txt`));
      expect(f.sections.flatMap((s) => s.lines)).toEqual(parseQuotedLog(text));
    }
    expect(parseSeedFile(SEED_TEXT['004']).sections.map((s) => s.scenario)).toEqual(['ceph-rbd-create', 'ceph-rbd-clone', 'ceph-rbd-delete']);
    const tiny = parseSeedFile('# head\n# more\n\na\tone\n# scenario: x\nb\ttwo\n# note\nb\tthree\n');
    expect(tiny).toEqual({ header: ['head', 'more'], sections: [{ lines: [{ stream: 'a', line: 'one' }] }, { scenario: 'x', lines: [{ stream: 'b', line: 'two' }, { stream: 'b', line: 'three' }] }] });
  });

  it('seed 000: all 46 lines land on 1.20 steps that print the same file:line, in order per stream', () => {
    const groups = seed000('1.20');
    const lines = groups.flatMap((g) => g.lines);
    expect(lines).toHaveLength(46);
    const m = flowModel('pod-migration', '1.20');
    const last = new Map<string, number>();
    for (const l of lines) {
      const step = l.located.step!;
      expect(step, l.line.slice(0, 80)).toBeGreaterThan(last.get(l.stream) ?? 0);
      last.set(l.stream, step);
      const printed = parseKlog(m.steps[step - 1]!.log!)!;
      const quoted = parseKlog(l.line)!;
      expect([printed.file, printed.line, printed.severity]).toEqual([quoted.file, quoted.line, quoted.severity]);
      expect(l.note.length).toBeGreaterThan(10);
    }
  });

  it('seed 000: a line about the new VolumeAttachment pairs with the step about that object, not the old one', () => {
    const lines = seed000('1.20').flatMap((g) => g.lines);
    const m = flowModel('pod-migration', '1.20');
    const va = /csi-[0-9a-f]{64}/;
    const withVa = lines.filter((l) => l.stream === 'csi-attacher' && va.test(l.line));
    expect(withVa.length).toBeGreaterThan(15);
    for (const l of withVa) expect(m.steps[l.located.step! - 1]!.log).toContain(va.exec(l.line)![0]);
  });

  it('seed 004: header-less ceph-csi lines match their messages; the command lines of the fork match none', () => {
    expect(identifyHeaderless('got omap values: (pool="rbd", namespace="", name="csi.volumes.default"): map[]', 'csi-driver-controller', '1.30')).toEqual(['csiControllerPlugin.cephGotOmapValues']);
    // cut after "using mon": still the snapshot message
    expect(identifyHeaderless('rbd: snap create rbd/@csi-vol-1-temp using mon', 'csi-driver-controller', '1.30')).toEqual(['csiControllerPlugin.cephSnapCreate']);
    expect(identifyHeaderless('deleting image csi-vol-1', 'kubelet', '1.30')).toEqual([]);
    const { groups, flows } = seed004('1.30');
    expect(flows).toEqual(['ceph-rbd-create', 'ceph-rbd-clone', 'ceph-rbd-delete']);
    groups.forEach((g, i) => {
      const m = flowModel(flows[i]!, '1.30');
      let prev = 0;
      for (const l of g.lines) {
        if (/^(command |the command |executing \[|run the command )/.test(l.line)) {
          expect(l.located).toEqual({});
          continue;
        }
        const step = l.located.step!;
        expect(step, l.line.slice(0, 60)).toBeGreaterThan(prev);
        prev = step;
        expect(m.steps[step - 1]!.msg).toBe(l.located.msg);
        expect(m.steps[step - 1]!.msg).toMatch(/^csiControllerPlugin\.ceph/);
      }
    });
    expect(groups.flatMap((g) => g.lines).filter((l) => l.located.step).length).toBe(30 - 6);
  });

  it('seeds 002 and 003 pair every quoted line with a note and claim no step', () => {
    const s2 = seedFields('002').flatMap((g) => g.lines);
    expect(s2.map((l) => l.line)).toEqual(['volumesAttached:', '  - devicePath: /dev/disk/by-id/virtio-disk-6w87j3wv', '    name: kubernetes.io/qcloud-cbs/disk-6w87j3wv', 'volumesInUse:', '  - kubernetes.io/qcloud-cbs/disk-6w87j3wv', '  - kubernetes.io/qcloud-cbs/disk-7bfqsft5']);
    const s3 = seedFields('003').flatMap((g) => g.lines);
    expect(s3.some((l) => l.line.includes('volume.kubernetes.io/selected-node'))).toBe(true);
    for (const l of [...s2, ...s3]) {
      expect(l.located).toEqual({});
      expect(l.note.length).toBeGreaterThan(10);
    }
  });

  it('annotate refuses notes that do not match the lines one to one', () => {
    const lines = [{ stream: 's', line: 'a' }, { stream: 's', line: 'b' }];
    expect(() => annotate(lines, [{}, {}], [{ title: 't', notes: ['only one'] }])).toThrow(/1 notes for 2 quoted lines/);
    expect(annotate(lines, [{ step: 3 }, {}], [{ title: 't', notes: ['x'] }, { title: 'u', notes: ['y'] }]).map((g) => g.lines.map((l) => [l.line, l.note, l.located.step]))).toEqual([[['a', 'x', 3]], [['b', 'y', undefined]]]);
  });

  it('klogSite reads file:line from a klog line with or without a journald prefix', () => {
    expect(klogSite('I0111 14:58:14.245000       1 reconciler.go:204] attacherDetacher.DetachVolume started')).toBe('reconciler.go:204');
    expect(klogSite('Jan 11 14:58:08 VM-61-164-centos kubelet[21944]: E0111 14:58:18.880393   20721 nestedpendingoperations.go:301] x')).toBe('nestedpendingoperations.go:301');
    expect(klogSite('no header here')).toBeUndefined();
    // locateKlogLines leaves a line the catalog does not know without a step
    expect(locateKlogLines(flowModel('pod-migration', '1.20'), [{ stream: 'csi-attacher', line: 'I0111 06:58:14.257759       1 nowhere.go:1] hello' }])).toEqual([{}]);
    expect(locateHeaderlessLines(flowModel('ceph-rbd-create', '1.30'), [{ stream: 'csi-driver-controller', line: 'hello' }])).toEqual([{}]);
  });
});

describe('the 1.20 / 1.30 comparison', () => {
  const a = flowModel('ad-detach-backoff', '1.20');
  const b = flowModel('ad-detach-backoff', '1.30');
  const rows = alignRuns(a, b);

  it('holds every key step of both runs exactly once, in time order, in one-second rows', () => {
    const keysA = a.steps.filter((s) => isKeyStep(s, ATTACH_DETACH_KEYS)).map((s) => s.i);
    const keysB = b.steps.filter((s) => isKeyStep(s, ATTACH_DETACH_KEYS)).map((s) => s.i);
    expect(rows.flatMap((r) => r.a.map((e) => e.step))).toEqual(keysA);
    expect(rows.flatMap((r) => r.b.map((e) => e.step))).toEqual(keysB);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.t).toBeGreaterThan(rows[i - 1]!.t);
    for (const r of rows) {
      expect(r.a.length + r.b.length).toBeGreaterThan(0);
      for (const e of [...r.a, ...r.b]) expect(Math.floor(e.t / 1000) * 1000).toBe(r.t);
    }
  });

  it('shows the story: same actions in the same rows; 1.30 attaches again through the Uncertain state, 1.20 only after syncStates finds the VolumeAttachment gone', () => {
    const userRows = rows.filter((r) => r.a.some((e) => e.actor === 'you'));
    for (const r of userRows) expect(r.b.filter((e) => e.actor === 'you').map((e) => e.summary)).toEqual(r.a.filter((e) => e.actor === 'you').map((e) => e.summary));
    const said = (side: 'a' | 'b', re: RegExp) => rows.some((r) => r[side].some((e) => re.test(e.summary)));
    const when = (side: 'a' | 'b', re: RegExp) => rows.find((r) => r[side].some((e) => re.test(e.summary)))?.t ?? NaN;
    expect(said('a', /waited 2m3s/)).toBe(true);
    expect(said('b', /creates VolumeAttachment/)).toBe(true);
    expect(said('b', /Running and Ready/)).toBe(true);
    // 1.20: the minute check, then a new VolumeAttachment, then the pod runs
    expect(when('a', /^syncStates marks/)).toBeLessThanOrEqual(when('a', /creates VolumeAttachment/));
    expect(when('a', /creates VolumeAttachment/)).toBeLessThan(when('a', /Running and Ready/));
    expect(said('b', /^syncStates marks/)).toBe(false);
  });
});

describe('the ceph journal', () => {
  it('create: from an empty pool to a reserved, created, recorded volume', () => {
    const [before, after] = journalStates(flowModel('ceph-rbd-create', '1.30'));
    expect(before!.tables).toMatchObject({ omaps: [], images: [], trash: [] });
    expect(after!.omap.every((r) => r.change === 'added')).toBe(true);
    const keys = after!.omap.map((r) => r.key).sort();
    expect(keys.filter((k) => k.startsWith('csi.volume.pvc-'))).toHaveLength(1);
    expect(keys).toEqual(expect.arrayContaining(['csi.imageid', 'csi.imagename', 'csi.volname']));
    expect(after!.images.map((r) => r.change)).toEqual(['added']);
    // the lines that came with the change are the journal and image lines, in order
    expect(after!.logSteps.map((s) => s.msg)).toEqual([
      'csiControllerPlugin.cephGotOmapValues', 'csiControllerPlugin.cephSetOmapKeys', 'csiControllerPlugin.cephSetOmapKeys',
      'csiControllerPlugin.cephGeneratedVolumeId', 'csiControllerPlugin.cephRbdCreate', 'csiControllerPlugin.cephCreatedVolume',
      'csiControllerPlugin.cephSetOmapKeys',
    ]);
  });

  it('clone: adds the clone and its -temp parent; delete: image to the trash, journal entries removed', () => {
    const clone = journalStates(flowModel('ceph-rbd-clone', '1.30')).at(-1)!;
    const added = clone.images.filter((r) => r.change === 'added').map((r) => r.item);
    expect(added).toHaveLength(2);
    const temp = added.find((i) => i.name.endsWith('-temp'))!;
    const final = added.find((i) => !i.name.endsWith('-temp'))!;
    expect(final.parent?.startsWith(`${temp.name}@`)).toBe(true);
    expect(clone.images.filter((r) => r.change === 'same')).toHaveLength(1);

    const del = journalStates(flowModel('ceph-rbd-delete', '1.30')).at(-1)!;
    expect(del.images.map((r) => r.change)).toEqual(['removed']);
    expect(del.trash.map((r) => [r.change, r.item.removeTaskQueued])).toEqual([['added', true]]);
    expect(del.removedObjects.some((o) => o.startsWith('csi.volume.'))).toBe(true);
    expect(del.omap.filter((r) => r.object === 'csi.volumes.default').map((r) => r.change)).toEqual(['removed']);
  });

  it('a flow without a ceph backend has no journal', () => {
    expect(journalStates(flowModel('attach', '1.30'))).toEqual([]);
  });
});

describe('object views', () => {
  const m = flowModel('wffc-provision', '1.30');

  it('shows an object as the step left it, with that step\'s changed lines', () => {
    const step = findStep(m, { component: 'kube-scheduler', verb: 'update', apiKind: 'PersistentVolumeClaim' }).i;
    const o = objectAt(m, 'PersistentVolumeClaim', step);
    expect(o.changedHere).toBe(true);
    const marked = yamlLines(o.version, true).filter((l) => l.changed).map((l) => l.text.trim());
    expect(marked.some((t) => t.startsWith('volume.kubernetes.io/selected-node:'))).toBe(true);
    expect(yamlLines(o.version, false).some((l) => l.changed)).toBe(false);
    // at a step that did not write it (the pod's creation): the version an earlier step wrote, unchanged here
    const podStep = findStep(m, { kind: 'user', apiKind: 'Pod' }).i;
    const before = objectAt(m, 'PersistentVolumeClaim', podStep);
    expect(before.changedHere).toBe(false);
    expect(before.version.step).toBeLessThan(podStep);
    expect(before.version.yaml).not.toContain('selected-node');
    const sc = objectAt(m, 'StorageClass', 0);
    expect(sc.changedHere).toBe(false);
    expect(sc.version.yaml).toContain('volumeBindingMode: WaitForFirstConsumer');
  });

  it('needs a name when several objects share the kind, and fails for an object that does not exist yet', () => {
    expect(() => objectAt(m, 'Node', 0)).toThrow(/several Node/);
    expect(objectAt(m, 'Node', 0, 'node-1').track.name).toBe('node-1');
    expect(() => objectAt(m, 'PersistentVolume', 1)).toThrow(/does not exist yet at step 1/);
    expect(() => objectAt(m, 'VolumeSnapshot', 1)).toThrow(/no VolumeSnapshot/);
  });
});
