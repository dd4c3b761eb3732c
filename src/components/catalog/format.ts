/**
 * Small wording helpers shared by the component pages, the RPC page and the home page map.
 */
import type { Kind } from '../../machines/index.ts';
import type { ComponentFacts } from '../../machines/view/components.ts';

export const componentUrl = (name: string): string => `/components/${name}/`;

export const PLACEMENT_TEXT: Record<ComponentFacts['placement'], string> = {
  'control-plane': 'on the control plane',
  'csi-controller-pod': 'in the CSI controller pod',
  'every-node': 'on every node',
};

/** Where it runs and how its lines reach a reader, in one phrase. */
export function runsText(c: ComponentFacts): string {
  const where = PLACEMENT_TEXT[c.placement];
  if (c.logKind === 'daemon') return `${where}, as a host service (logs in the journal, e.g. journalctl -u ${c.source})`;
  if (c.source === 'kube-controller-manager' || c.source === 'kube-scheduler') {
    return `${where}, inside ${c.source}${c.source === 'kube-controller-manager' && c.name !== c.source ? ' (one of its controllers)' : ''}; logs in the ${c.source} container`;
  }
  return `${where}, as the ${c.source} container`;
}

/** The short names kubectl knows, where there is one; others are spelled out. */
export const KIND_SHORT: Partial<Record<Kind, string>> = {
  PersistentVolumeClaim: 'PVC',
  PersistentVolume: 'PV',
  StorageClass: 'SC',
  VolumeAttachment: 'VA',
  StatefulSet: 'STS',
  VolumeSnapshot: 'VS',
  VolumeSnapshotContent: 'VSC',
  VolumeSnapshotClass: 'VSClass',
};
export const kindShort = (k: Kind): string => KIND_SHORT[k] ?? k;

/** What an API verb does, in words a reader of the YAML recognises. */
export const VERB_TEXT: Record<string, string> = {
  create: 'creates',
  update: 'updates (whole object)',
  updateStatus: 'updates status',
  patch: 'patches',
  patchStatus: 'patches status',
  delete: 'deletes',
};
export const verbText = (verb: string): string => VERB_TEXT[verb] ?? verb;

export const SEVERITY_TEXT: Record<string, string> = { I: 'Info', W: 'Warning', E: 'Error', F: 'Fatal' };

/** A list in prose: "a, b and c". */
export function andList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A fragment id from any text (message ids, machine ids). */
export const anchorId = (text: string): string => text.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
