/**
 * Links from chapter content to steps: resolve a step query against a flow model and build the
 * player deep link for the chapter that shows that flow.
 */
import type { ProfileId } from '../../machines/shared/messages.ts';
import { flowModel } from '../flows/data.ts';
import { CHAPTERS } from './chapters.ts';
import { findStep, playerHref, type StepQuery } from './steps.ts';

/** The chapter whose player shows `flow` (each scenario has at most one chapter). */
export function chapterOfFlow(flow: string) {
  return CHAPTERS.find((c) => c.scenarios.includes(flow));
}

/**
 * The deep link into the player for step `step` of `flow`. The flow is named only when its chapter's
 * player carries several flows; the version only when the caller asks for one.
 */
export function stepHref(flow: string, step: number, k8s?: ProfileId): string {
  const c = chapterOfFlow(flow);
  return playerHref(step, { ...(c && c.scenarios.length > 1 ? { flow } : {}), ...(k8s ? { k8s } : {}) });
}

/** The version a flow is shown in by default: its chapter's. */
export function defaultK8s(flow: string): ProfileId {
  return chapterOfFlow(flow)?.k8s ?? '1.30';
}

/** Resolve a query to a step number of `flow` in `k8s` (its chapter's version by default). */
export function stepNumber(flow: string, q: StepQuery, k8s?: ProfileId): number {
  return findStep(flowModel(flow, k8s ?? defaultK8s(flow)), q).i;
}
