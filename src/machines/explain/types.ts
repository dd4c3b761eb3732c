/**
 * The log explainer's data: what it knows (built from the machines' message catalog and the traces of
 * every scenario, so it cannot drift from what the machines print) and what it says about each line.
 * Pure types; the explainer itself (explain.ts) depends on nothing but this knowledge.
 */
import type { ProfileId, Severity, Stage, LogSource } from '../shared/messages.ts';

export type { Stage, Severity };

/** Where in our flows a message is printed: a scenario's step, and the site page that shows it. */
export interface StepRef {
  scenario: string;
  k8s: ProfileId;
  step: number;
  /** site path with the step deep link, e.g. "/flows/attach/?k8s=1.30&step=12#player" or "/embed/force-detach/?step=3" */
  url: string;
  /** the step's one-sentence summary */
  summary: string;
}

/** One message format the machines print, compiled for matching. */
/** A cut line's text as a template's head (KnownFormat.head) is compared: lower-cased, without trailing spaces, colons and commas. */
export const cutText = (s: string): string => s.toLowerCase().replace(/[\s:,]+$/, '').trim();

export interface KnownFormat {
  profile: ProfileId;
  file: string;
  line: number;
  severity: Severity;
  /** RegExp source matching the text after the klog header ("] ") */
  pattern: string;
  /**
   * a looser RegExp source for lines of other versions: a structured line's quoted message with any
   * key/values after it; a printf line's template with anything after it
   */
  loose: string;
  /** the strict pattern with one group per placeholder, and the placeholder names in order */
  capture: string;
  names: string[];
  /** the longest literal run of the template, to filter candidates cheaply (lower-cased) */
  literal: string;
  /**
   * a printf template's words before its first argument (lower-cased, without trailing spaces and colons), when they are
   * long enough to tell it apart: a line at the template's file cut where its arguments begin (wrapped onto the next
   * line, lost from a screenshot) is still that message
   */
  head?: string;
}

export interface KnownMessage {
  id: string;
  source: LogSource;
  /** the component (machine) that prints it, e.g. "attach-detach-controller" */
  component: string;
  stage: Stage;
  severity: Severity;
  /** template of the step summary (placeholders kept as {name}) */
  summary: string;
  explain?: string;
  cause?: string;
  next?: string;
  formats: KnownFormat[];
  /** first step printing it in our scenarios (healthy runs first), if any */
  step?: StepRef;
  /** the same per version profile: a line in one era's format links to that era's run */
  steps?: Partial<Record<ProfileId, StepRef>>;
  /**
   * for a message our flows print in more than one stage (the kubelet's failed operation), its first step in each stage,
   * and per profile: a line is linked to a step of its own stage's work, not to the first flow that printed the message
   */
  byStage?: Partial<Record<Stage, Partial<Record<ProfileId, StepRef>>>>;
  /**
   * the next line a healthy system prints after this one in the same flow: its message id,
   * component, source (which log to look in) and step
   */
  nextHealthy?: { id: string; component: string; source: LogSource; step: StepRef };
}

/** A Kubernetes Event reason as `kubectl describe` shows it. */
export interface KnownEventReason {
  reason: string;
  /** the component that records it (kubectl's "From" column varies by version) */
  component: string;
  stage: Stage;
  type: 'Normal' | 'Warning';
  explanation: string;
  cause?: string;
  next?: string;
  step?: StepRef;
}

export interface Knowledge {
  version: 1;
  /** the language of its texts and of the explanations built from it (English when absent) */
  lang?: 'zh';
  messages: KnownMessage[];
  events: KnownEventReason[];
  /** chapter per stage, for "read more" links */
  chapters: Partial<Record<Stage, string>>;
}

export type LineKind =
  /** a klog line (any era), possibly behind journald/CRI/kubectl prefixes */
  | 'log'
  /** a row of a `kubectl describe` Events table */
  | 'event'
  /** a piece of the previous line, wrapped by a terminal or a multi-line message */
  | 'continuation'
  /** a table header, a separator, a prompt: part of the paste, not a log record */
  | 'decoration'
  | 'blank'
  /** text that is not a log record we can read */
  | 'unrelated';

export interface ExplainedLine {
  /** 1-based line number in the input */
  line: number;
  /** the input line, as given (trailing CR removed) */
  text: string;
  kind: LineKind;
  /** the component that printed it, e.g. "kubelet", "external-attacher", "attach-detach-controller"; null if unknown */
  component: string | null;
  /** the program / container whose log it is, e.g. "kubelet", "csi-attacher", "kube-controller-manager" */
  source: string | null;
  stage: Stage;
  /** our flow's step that prints the same message, with its site link */
  step: StepRef | null;
  severity: Severity | null;
  /** the time as printed (klog "0111 14:58:08.573794", journald, RFC 3339, or an event's age) */
  time: string | null;
  /** host from a journald prefix */
  host: string | null;
  /** catalog id (log lines) or Event reason (event rows) when recognised */
  messageId: string | null;
  /** how it was recognised: a catalog message, a known Event reason, keywords only (a guess), or not at all */
  match: 'catalog' | 'event' | 'guess' | 'none';
  explanation: string;
  cause?: string;
  next?: string;
  /** for continuation lines: the line they continue */
  continues?: number;
}

export interface ExplainSummary {
  lines: number;
  recognised: number;
  guessed: number;
  errors: number;
  warnings: number;
  /** stages seen, in flow order */
  stages: Stage[];
  components: string[];
  /** the last line that shows healthy progress (severity I, recognised) */
  lastHealthy: { line: number; messageId: string; stage: Stage; component: string; step: StepRef | null } | null;
  /** where the flow stopped: the stage and the first error/warning after the last healthy line, if any */
  stoppedAt: { stage: Stage; line: number; text: string; reason: string } | null;
  /** the line a healthy system would print next, and where to look for it */
  nextExpected: { messageId: string; component: string; source: string; summary: string; step: StepRef | null; where: string } | null;
  /** one paragraph in plain English */
  verdict: string;
}

export interface ExplainResult {
  lines: ExplainedLine[];
  summary: ExplainSummary;
}

/** Unusable input: the reason, in one sentence a person can act on. */
export class ExplainInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExplainInputError';
  }
}
