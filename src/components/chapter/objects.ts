/**
 * Build-time lookups of object versions in a flow model, for the static object views of a chapter.
 */
import { versionAt, type FlowModel, type ObjectTrack, type ObjectVersion } from '../../machines/view/flow.ts';

export interface ObjectAt {
  track: ObjectTrack;
  version: ObjectVersion;
  /** the step asked for */
  step: number;
  /** whether that very step wrote this version */
  changedHere: boolean;
}

/**
 * The object of `kind` (named `name`, or the only one of its kind) as it is after `step` (0: before
 * the first step). Several objects of the kind and no name is a build error: the page must say which.
 */
export function objectAt(model: FlowModel, kind: string, step: number, name?: string): ObjectAt {
  const candidates = model.objects.filter((o) => o.kind === kind && (name === undefined || o.name === name));
  const list = (): string => model.objects.filter((o) => o.kind === kind).map((o) => o.name).join(', ') || 'none';
  if (candidates.length !== 1) {
    throw new Error(`${model.scenario} ${model.k8s}: ${candidates.length ? 'several' : 'no'} ${kind}${name ? ` named ${name}` : ''} (${kind} objects: ${list()})`);
  }
  const track = candidates[0]!;
  const v = versionAt(track.versions, step);
  if (v < 0) throw new Error(`${model.scenario} ${model.k8s}: ${kind}/${track.name} does not exist yet at step ${step}`);
  const version = track.versions[v]!;
  return { track, version, step, changedHere: version.step === step && step > 0 };
}

/** The steps that wrote a version of the object (its history), creation first. */
export function writesOf(model: FlowModel, kind: string, name: string): number[] {
  const t = model.objects.find((o) => o.kind === kind && o.name === name);
  return t ? t.versions.map((v) => v.step).filter((s) => s > 0) : [];
}

export interface YamlLine {
  n: number;
  text: string;
  changed: boolean;
}

/** The YAML of a version as numbered lines with the changed ones flagged. */
export function yamlLines(version: ObjectVersion, markChanges: boolean): YamlLine[] {
  if (version.yaml === null) return [];
  const changed = new Set(markChanges ? version.changed : []);
  const lines = version.yaml.replace(/\n$/, '').split('\n');
  return lines.map((text, i) => ({ n: i + 1, text, changed: changed.has(i + 1) }));
}
