/**
 * The what-if of a player in the URL's words (?fault=, ?shutdown=, ?delete=), the run actions it
 * becomes, and where a re-simulated flow departs from the original.
 */
import { describe, expect, it } from 'vitest';
import { buildFlowModel, runScenario } from '../../src/machines/index.ts';
import { firstDeparture, isWhatIf, NO_WHAT_IF, ownershipWalkFault, parseDriverText, podsSetFsGroup, readWhatIf, runActionsOf, stepAtTime, writeWhatIf } from '../../src/machines/view/whatif.ts';

describe('the what-if in a URL', () => {
  it('reads repeated faults, shutdowns and deletes, and writes them back the same', () => {
    const search = '?k8s=1.30&fault=ControllerPublishVolume%3DDEADLINE_EXCEEDEDx2&fault=NodeStageVolume%3DINTERNAL&shutdown=node-1%4012&delete=web-0%407&step=3';
    const { whatIf, problems } = readWhatIf(search);
    expect(problems).toEqual([]);
    expect(whatIf).toEqual({
      faults: ['ControllerPublishVolume=DEADLINE_EXCEEDEDx2', 'NodeStageVolume=INTERNAL'],
      shutdown: [{ node: 'node-1', step: 12 }],
      delete: [{ pod: 'web-0', step: 7 }],
      driver: {},
    });
    expect(isWhatIf(whatIf)).toBe(true);
    const written = writeWhatIf('?k8s=1.30&step=3', whatIf);
    expect(readWhatIf(written).whatIf).toEqual(whatIf);
    expect(new URLSearchParams(written).get('k8s')).toBe('1.30');
    expect(writeWhatIf(written, NO_WHAT_IF)).toBe('?k8s=1.30&step=3');
  });

  it('reads the driver’s capabilities as `csi-flows trace --driver` writes them, repeated or comma-separated', () => {
    const { whatIf, problems } = readWhatIf('?driver=attachRequired%3Dfalse&driver=stageunstage=false');
    expect(problems).toEqual([]);
    expect(whatIf.driver).toEqual({ attachRequired: false, stageUnstage: false });
    expect(isWhatIf(whatIf)).toBe(true);
    const written = writeWhatIf('?step=2', whatIf);
    expect(new URLSearchParams(written).getAll('driver')).toEqual(['attachRequired=false,stageUnstage=false']);
    expect(readWhatIf(written).whatIf).toEqual(whatIf);
    expect(parseDriverText('attachRequired=true')).toEqual({ attachRequired: true });
    expect(() => parseDriverText('attachRequired=no')).toThrow(/"attachRequired=no": expected <capability>=true\|false/);
    expect(() => parseDriverText('block=true')).toThrow(/"block": unknown capability \(known: attachRequired, stageUnstage\)/);
    const bad = readWhatIf('?driver=fast=true');
    expect(bad.whatIf.driver).toEqual({});
    expect(bad.problems).toEqual(['driver="fast=true": "fast": unknown capability (known: attachRequired, stageUnstage)']);
  });

  it('names what it cannot read and leaves it out', () => {
    const { whatIf, problems } = readWhatIf('?fault=NodeStageVolume%3DBOGUS&fault=Nope%3DINTERNAL&shutdown=node-1&delete=%400');
    expect(whatIf.faults).toEqual([]);
    expect(whatIf.shutdown).toEqual([]);
    expect(whatIf.delete).toEqual([]);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^fault "NodeStageVolume=BOGUS": /);
    expect(problems[2]).toMatch(/^shutdown="node-1": expected <node>@<step>/);
    expect(isWhatIf(whatIf)).toBe(false);
  });
});

describe('a what-if run', () => {
  const original = buildFlowModel(runScenario('attach', { k8s: '1.30' }));

  it('turns step numbers into the story times of the original flow', () => {
    const { actions, problems } = runActionsOf({ ...NO_WHAT_IF, shutdown: [{ node: 'node-1', step: 5 }], delete: [{ pod: 'team/web-0', step: 9999 }] }, original);
    expect(actions).toEqual([{ at: original.steps[4]!.t, do: 'shutdownNode', node: 'node-1', summary: 'What if: node-1 shuts down (at step 5 of the original flow).' }]);
    expect(problems).toEqual([`delete=team/web-0@9999: the flow has ${original.steps.length} steps, not 9999`]);
  });

  it('a ControllerPublishVolume timeout departs from the original at the publish call and takes longer', () => {
    const changed = buildFlowModel(runScenario('attach', { k8s: '1.30', faults: ['ControllerPublishVolume=DEADLINE_EXCEEDEDx1'] }));
    const at = firstDeparture(original, changed)!;
    expect(at).toBeGreaterThan(1);
    // the steps before it are the original's, and the one at it is no longer
    expect(changed.steps.slice(0, at - 1).map((s) => s.summary)).toEqual(original.steps.slice(0, at - 1).map((s) => s.summary));
    expect(changed.steps[at - 1]!.summary).not.toBe(original.steps[at - 1]!.summary);
    expect(changed.steps.some((s) => (s.log ?? '').includes('code = DeadlineExceeded'))).toBe(true);
    expect(original.steps.some((s) => (s.log ?? '').includes('DeadlineExceeded'))).toBe(false);
    expect(changed.steps.length).toBeGreaterThan(original.steps.length);
    expect(firstDeparture(original, original)).toBeNull();
    expect(firstDeparture(original, { steps: original.steps.slice(0, 10) })).toBe(11);
  });

  it('finds the same moment of the story in another run', () => {
    expect(stepAtTime(original, original.steps[6]!.t)).toBeGreaterThanOrEqual(7);
    expect(stepAtTime(original, -1)).toBe(1);
    expect(stepAtTime(original, Number.MAX_SAFE_INTEGER)).toBe(original.steps.length);
  });
});

describe('the what-if of an fsGroup walk', () => {
  it('is offered for a flow whose pod sets an fsGroup (read from its YAML), not for others; its faults are the CLI\'s', () => {
    expect(podsSetFsGroup(buildFlowModel(runScenario('fsgroup', { k8s: '1.30' })))).toBe(true);
    expect(podsSetFsGroup(buildFlowModel(runScenario('mount', { k8s: '1.30' })))).toBe(false);
    expect(ownershipWalkFault('EIO', 'x1')).toBe('host:SetVolumeOwnership=EIOx1');
    expect(ownershipWalkFault('+3m', 'x1')).toBe('host:SetVolumeOwnership=+3m');
    // the URL carries it as any fault, and a run with it departs where the walk fails
    const { whatIf, problems } = readWhatIf('?fault=host%3ASetVolumeOwnership%3DEACCESx1');
    expect(problems).toEqual([]);
    expect(whatIf.faults).toEqual(['host:SetVolumeOwnership=EACCESx1']);
    const original = buildFlowModel(runScenario('fsgroup', { k8s: '1.30' }));
    const changed = buildFlowModel(runScenario('fsgroup', { k8s: '1.30', faults: whatIf.faults }));
    const at = firstDeparture(original, changed)!;
    expect(changed.steps[at - 1]!.summary).toMatch(/applyFSGroup failed for vol disk-f5g2r8w1: open \S+\/mount: permission denied/);
  });
});

