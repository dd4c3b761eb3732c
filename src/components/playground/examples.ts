/**
 * The playground's examples: scenario files as a reader writes them (Kubernetes YAML plus a
 * csi-flows/v1 Scenario document), each with a comment saying what it shows. The same files run on
 * the command line (`npx csi-flows trace --file <file>`) and in test/playground/examples.test.ts.
 */
import podWithClaim from './examples/pod-with-claim.yaml?raw';
import noAttach from './examples/no-attach.yaml?raw';
import rwxTwoNodes from './examples/rwx-two-nodes.yaml?raw';
import statefulsetMove from './examples/statefulset-move.yaml?raw';
import nodeShutdown from './examples/node-shutdown.yaml?raw';
import stageFault from './examples/stage-fault.yaml?raw';
import lateNodePlugin from './examples/late-node-plugin.yaml?raw';

export interface Example {
  /** ?example=<id>, and the file's name without .yaml */
  id: string;
  /** the menu's label */
  label: string;
  yaml: string;
}

export const EXAMPLES: readonly Example[] = [
  { id: 'pod-with-claim', label: 'A pod with a claim (attach + mount)', yaml: podWithClaim },
  { id: 'no-attach', label: 'A driver without attach', yaml: noAttach },
  { id: 'rwx-two-nodes', label: 'A ReadWriteMany volume on two nodes', yaml: rwxTwoNodes },
  { id: 'statefulset-move', label: 'A StatefulSet of 3 pods moving node', yaml: statefulsetMove },
  { id: 'node-shutdown', label: 'A node shuts down', yaml: nodeShutdown },
  { id: 'stage-fault', label: 'A fault: NodeStageVolume fails once', yaml: stageFault },
  { id: 'late-node-plugin', label: 'A node plugin that starts late', yaml: lateNodePlugin },
];

/** The example the page opens with. */
export const STARTING_EXAMPLE: Example = EXAMPLES[0]!;

export const exampleById = (id: string): Example | undefined => EXAMPLES.find((e) => e.id === id);

/** What an example shows: its leading comment lines, without the "#". */
export function exampleNote(yaml: string): string {
  const lines: string[] = [];
  for (const line of yaml.split('\n')) {
    if (!line.startsWith('#')) break;
    lines.push(line.replace(/^#\s?/, ''));
  }
  return lines.join(' ');
}
