/**
 * Messages between a page and the simulation worker (sim.worker.ts): a scenario to run (a built-in id
 * with a what-if, or a Scenario YAML) and the flow model the player shows, or what is wrong with it.
 */
import type { FlowModel } from '../../machines/view/flow.ts';
import type { WhatIf } from '../../machines/view/whatif.ts';

export interface SimRequest {
  id: number;
  /** a built-in scenario id, or the YAML of a scenario file (the playground) */
  scenario: { id: string; replicas?: number } | { yaml: string };
  k8s?: string;
  lang: 'en' | 'zh';
  /** the reader's changes (what-if); shutdown/delete steps count in `original` */
  whatIf?: WhatIf;
  /** the flow the what-if's steps are counted in (its step times), when there is one */
  original?: Pick<FlowModel, 'steps'>;
  /**
   * Run it only to warm the worker up (its compiled code, the object versions it renders): the answer
   * says nothing but that it ran. The what-if panel sends the page's own flow when it opens.
   */
  warmUp?: boolean;
}

export type SimResponse =
  | { id: number; ok: true; model: FlowModel; faults: Array<{ fault: string; hits: number }>; ms: number; notes: string[] }
  | { id: number; ok: false; message: string; line?: number; column?: number };

/** What the worker posts: an answer, or word that a warm-up ran (nobody waits for its flow). */
export type WorkerMessage = SimResponse | { id: number; warmedUp: true };
