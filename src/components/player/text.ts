/**
 * The player's own words (labels, buttons, headings, notes), English by default. A page in another
 * language passes its strings as the island's `text` prop (text.zh.ts, read at build time), so the
 * browser never loads a language it does not show. `{name}` marks a value filled in by `fill`.
 */
import { createContext, useContext } from 'react';

export const PLAYER_TEXT_EN = {
  playerLabel: 'Flow player: {title}',
  /** the page of a component, where its machines' full charts are (the page's language) */
  componentHref: '/components/{component}/',
  noJsEmbed: 'The interactive flow player needs JavaScript. Each step\'s summary and log line are also listed in the flow\'s data file: ',
  noJsChapter: 'The interactive flow player needs JavaScript. The full list of steps, with every summary and log line, follows below.',
  flow: 'Flow',
  kubernetes: 'Kubernetes',
  largeText: 'Large text',
  besideStep: 'Beside the step',
  showDiagram: 'Sequence diagram',
  showLog: 'Log',
  showObjects: 'Objects',
  showWorld: 'Machines and state of world',
  fullScreen: 'Full screen',
  fullScreenTitle: 'Full screen (F)',
  speakerNotes: 'Speaker notes',
  notesHref: '/present/{scenario}/notes/', presentHref: '/present/{scenario}/',
  notesTitle: 'Speaker notes: {title}', timeSinceStart: 'Time since the start', resetTimer: 'Reset timer', previous: 'Previous', nextButton: 'Next',
  presenterWindow: 'the presenter window', noChannel: 'This browser cannot link the two windows (no BroadcastChannel).',
  waiting: 'Waiting for the presenter window: open {link} in this browser.', notesStep: 'Step {step} of {total}', notesWhen: '({time}, Kubernetes {k8s})',
  nextStep: 'Next: step {n}',
  dismiss: 'Dismiss',
  whatIf: 'What if…',
  departsHere: 'the changed flow departs here',
  retry: 'Retry',
  controls: 'Player controls',
  first: 'First step', firstTitle: 'First step (Home)',
  prev: 'Previous step', prevTitle: 'Previous step (← or PageUp)',
  play: 'Play', pause: 'Pause', playTitle: '{what} (Space)',
  next: 'Next step', nextTitle: 'Next step (→ or PageDown)',
  last: 'Last step', lastTitle: 'Last step (End)',
  /** the stages' names in the scrubber's legend, by stage id (none: the ids themselves) */
  stageNames: {} as Readonly<Record<string, string>>,
  warning: 'warning',
  error: 'error',
  speed: 'Speed',
  loadingVersion: 'Loading {k8s}…',
  stepOf: 'Step {step} of {total}',
  loadingTrace: 'Loading the trace…',
  who: 'Who', on: '{component} on {host}', kind: 'Kind', time: 'Time', state: 'State', why: 'Why',
  /** the step kinds' names in the page's language, by kind (none: the kinds themselves) */
  kinds: {} as Readonly<Record<string, string>>,
  stepN: 'step {n}',
  blanked: 'Screen blanked',
  blankedNote: 'The screen is blank. Press B or Escape to show the flow again.',
  noFlow: 'There is no flow “{flow}” in this player; showing {shown}.',
  noVersion: 'Kubernetes {k8s} is not available for this flow ({versions}); showing {shown}.',
  noTrace: 'No trace of {scenario} for Kubernetes {k8s}.',
  loadFailed: 'The trace could not be loaded: {error}',
  scrubber: 'Step',
  scrubberValue: 'Step {step} of {total}: {summary}',
  loading: 'Loading',
  // sequence diagram
  sequence: 'Sequence',
  noMessages: 'This flow sends no API or CSI messages.',
  diagramLabel: 'Sequence diagram, steps {first} to {last} ({shown} of {count} messages)',
  participants: 'Participants',
  messageTitle: 'Step {step}: {from} → {to}',
  messageTo: ', {from} to {to}', reply: ' (reply)',
  noMessagesShort: 'no messages', beforeFirst: 'before the first message',
  currentMessage: 'step {step}: {from} → {to}', lastBefore: 'step {step} (the last message before step {now}): {from} → {to}',
  earlier: '… {n} earlier messages', earlierOne: '… 1 earlier message', more: '… {n} more messages', moreOne: '… 1 more message',
  mermaidSource: 'Mermaid source of these {n} messages',
  // log pane
  log: 'Log', lines: '{n} lines',
  thisLine: 'this step’s line',
  nearLine: 'the last line before a step that prints none',
  futureLine: 'grey: still to come',
  showLinesOf: 'Show the log lines of',
  showAll: 'Show all',
  lanes: 'Lanes: {shown} of {count} shown',
  lineTitle: 'Step {step}: {lane} (Enter or click to go to this step)',
  // objects
  objects: 'Objects', afterStep: 'after step {step}',
  writtenHere: 'Written by this step',
  noObjectChanged: 'This step changes no object.',
  deletedHere: ' deleted at this step', createdHere: ' created at this step', changedHere: ' changed at this step',
  objectDeleted: 'This object was deleted at this step.',
  // machines and state of world
  world: 'Machines, state of world and timers',
  noTables: 'This flow records no component tables.',
  timers: 'Timers', running: '{n} running',
  noTimer: 'No timer is running at this step.',
  empty: 'empty',
  changed: 'changed',
  changedAtStep: 'changed at this step',
  actedOn: 'Machines this step acted on',
  statesOf: 'States of {name}',
  leftHere: ' (left at this step)',
  noMachineState: 'No machine state is recorded for this step.',
  moved: 'Moved', onEvents: ' on ', inState: 'In',
  leaves: 'The step leaves {component} in {state}; no volume or operation machine moved.',
  desired: 'Desired state of world', actual: 'Actual state of world', reportedAsAttached: 'Reported as attached (node status)',
  volumesInUse: 'volumesInUse (node status)', yes: 'yes', no: 'no',
  left: '{time} left', removed: 'removed:', noTablesYet: '{title}: no tables recorded before this step.',
} as const;

export type PlayerText = { readonly [K in keyof typeof PLAYER_TEXT_EN]: (typeof PLAYER_TEXT_EN)[K] extends string ? string : (typeof PLAYER_TEXT_EN)[K] };

export const TextContext = createContext<PlayerText>(PLAYER_TEXT_EN);
export const useText = (): PlayerText => useContext(TextContext);

/** A stage's name in the player's language (text.stageNames), else its id. */
export const stageName = (t: PlayerText, stage: string): string => t.stageNames[stage] ?? stage;

/** "Step {step} of {total}" with the values put in. */
export function fill(tpl: string, vars: Record<string, string | number>): string {
  return tpl.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}
