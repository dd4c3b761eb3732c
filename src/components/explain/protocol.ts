/**
 * The messages between the /explain/ page and its worker. The worker keeps the explained lines (a
 * 20 MB log has 10^5 of them) and answers page-sized queries, so the main thread never receives or
 * holds more than one page of results. Types only: nothing here ships as code.
 */
import type { ExplainedLine, ExplainSummary, Severity, Stage } from '../../machines/explain/types.ts';

/** Lines per page of the listing: enough to scroll through, few enough to render in a frame or two. */
export const PAGE_SIZE = 500;

export type ExplainInput = { kind: 'text'; text: string } | { kind: 'bytes'; bytes: ArrayBuffer; name: string };

export type SeverityFilter = 'all' | 'error' | 'warning' | 'info';

export interface Filters {
  /** a stage, or '' for all */
  stage: Stage | '';
  /** a component, '' for all, or '(unknown)' for lines whose component is not known */
  component: string;
  severity: SeverityFilter;
  /** only lines matched to a catalog message or an Event reason (not guesses) */
  recognised: boolean;
  /** only warnings, errors and fatal lines */
  problems: boolean;
}

export const NO_FILTERS: Filters = { stage: '', component: '', severity: 'all', recognised: false, problems: false };

export type ToWorker =
  /** `lang` 'zh': explain with the Chinese knowledge (/zh/explain/) */
  | { type: 'explain'; id: number; input: ExplainInput; lang?: 'zh' }
  /** `line` asks for the page that holds that input line (1-based) under the filters */
  | { type: 'query'; id: number; filters: Filters; page?: number; line?: number };

export interface Facets {
  stages: Stage[];
  components: string[];
  severities: Severity[];
  unknownComponent: boolean;
}

export type FromWorker =
  | { type: 'progress'; id: number; phase: 'knowledge' | 'decode' | 'explain'; done: number; total: number }
  | {
      type: 'done';
      id: number;
      summary: ExplainSummary;
      facets: Facets;
      /** chapter per stage, for "read more" links */
      chapters: Partial<Record<Stage, string>>;
    }
  | {
      type: 'page';
      id: number;
      filters: Filters;
      page: number;
      pageCount: number;
      /** lines matching the filters, over the whole input */
      matching: number;
      lines: ExplainedLine[];
    }
  | { type: 'error'; id: number; kind: 'input' | 'knowledge' | 'internal'; message: string };
