/**
 * The node status updater: writes each node's status.volumesAttached from the actual state of world (the
 * volumes it reports as attached), and when a write fails marks the node for another write.
 * upstream: pkg/controller/volume/attachdetach/statusupdater/node_status_updater.go (1.20 UpdateNodeStatuses;
 * 1.30 UpdateNodeStatuses, UpdateNodeStatusForNode, processNodeVolumes), through PatchNodeStatus
 * (1.20 pkg/util/node/node.go:294, 1.30 k8s.io/component-helpers/node/util/status.go), whose error wraps the API
 * server's with %v: "failed to patch status <patch bytes> for node <name>: <error>". (That is why 1.30's
 * errors.IsNotFound branch after the PATCH never matches: the wrapped error is no StatusError; a missing Node is
 * re-marked like any other failure.)
 */
import type { ClusterEmitted } from '../../shared/contract.ts';
import { goQuote, sortedJson } from '../../shared/goFormat.ts';
import { summarize } from '../../shared/messages.ts';
import { getProfile } from '../../profiles/index.ts';
import * as asw from '../cache/actualStateOfWorld.ts';
import { attachDetachControllerSummaries as summaries } from '../attachDetachController.messages.ts';
import type { AdcContext, Out } from '../types.ts';

/** UpdateNodeStatuses / UpdateNodeStatusForNode: patch status.volumesAttached of nodes that need it. */
export function updateNodeStatuses(ctx: AdcContext, only: string | undefined, set: (c: AdcContext) => void): ClusterEmitted[] {
  const { asw: next, updates } = asw.takeNodesToUpdate(ctx.asw, only);
  const out: ClusterEmitted[] = [];
  // for scale: `reported` and `statusWrites` are updated in place (the actor owns its context)
  const reported = ctx.reported;
  let seq = ctx.seq;
  for (const u of updates) {
    if (!ctx.nodes[u.nodeName]) continue;
    const text = JSON.stringify(u.volumes);
    // identical lists are not re-sent (upstream would PATCH anyway; the result is the same object)
    if (reported[u.nodeName] === text) continue;
    reported[u.nodeName] = text;
    seq += 1;
    const requestId = `adc-${seq}`;
    const patch = { status: { volumesAttached: u.volumes.length ? u.volumes.map((name) => ({ name, devicePath: '' })) : null } };
    ctx.statusWrites[requestId] = { node: u.nodeName, patch: sortedJson(patch) };
    out.push({
      type: 'api.request', requestId, verb: 'patchStatus', kind: 'Node', name: u.nodeName, patch,
      summary: summarize(summaries, 'attachDetachController.updateVolumesAttached', { nodeName: u.nodeName, volumes: u.volumes.length ? u.volumes.join(', ') : 'none' }),
    });
  }
  set({ ...ctx, asw: next, reported, seq });
  return out;
}

/**
 * A node status write has returned. A failed one marks the node for another write (SetNodeStatusUpdateNeeded,
 * "Could not update node status …; re-marking for update", at -v=2) and forgets what was written, so the next pass
 * writes it again; `failed` is the write's error (PatchNodeStatus's).
 */
export function nodeStatusWritten(ctx: AdcContext, requestId: string, ok: boolean, message: string | undefined): Out & { failed?: string } {
  const write = ctx.statusWrites[requestId]!;
  delete ctx.statusWrites[requestId];
  if (ok) return { ctx, out: [] };
  const err = `failed to patch status ${goQuote(write.patch)} for node ${goQuote(write.node)}: ${message ?? ''}`;
  delete ctx.reported[write.node];
  const marked = { ...ctx, asw: asw.markNodeForUpdate(ctx.asw, write.node) };
  return { ctx: marked, out: [{ type: 'log', msg: 'attachDetachController.nodeStatusRemarked', args: { node: write.node, err } }], failed: err };
}

/**
 * What UpdateNodeStatuses returns when a write of the reconciler's pass failed, for its "UpdateNodeStatuses failed" line
 * (1.20 reconciler.go:238 klog.Warningf, 1.30 :311 logger.Info): 1.20 returns the write's error, 1.30 counts the
 * nodes it could not update ("unable to update %d nodes", node_status_updater.go UpdateNodeStatuses).
 */
export const updateNodeStatusesError = (ctx: AdcContext, err: string): string =>
  getProfile(ctx.input.profile).adcUpdateNodeStatusesCountsFailures ? 'unable to update 1 nodes' : err;
