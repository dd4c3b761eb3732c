/**
 * csi-attacher start-up: Probe until ready, GetPluginInfo, GetPluginCapabilities,
 * ControllerGetCapabilities, then the real or the trivial handler.
 * upstream: external-attacher cmd/csi-attacher/main.go (v3.1.0: two ControllerGetCapabilities calls,
 * supportsControllerPublish then supportsListVolumesPublishedNodes; v4.6.1: one), csi-lib-utils
 * rpc/common.go ProbeForever (retry every second while not ready or timed out).
 */
import type { CsiResultEvent } from '../shared/contract.ts';
import { SECOND } from '../shared/timing.ts';
import { getProfile } from '../profiles/index.ts';
import { capabilityNames } from './helpers.ts';
import type { ExternalAttacherContext } from './externalAttacher.types.ts';
import { grpcCall, grpcResult, log, type Step } from './step.ts';

/** ProbeForever's probeInterval. upstream: csi-lib-utils rpc/common.go */
const PROBE_INTERVAL = 1 * SECOND;

export function onStarted(s: Step): void {
  log(s, 'externalAttacher.version', { version: getProfile(s.ctx.input.profile).sidecars.attacher });
  // csi-lib-utils prefixes an absolute socket path with unix:// before it logs it (connection.go, v0.9.0 :118, v0.18.1 :191-195)
  const address = s.ctx.input.csiAddress ?? '/csi/csi.sock';
  log(s, 'externalAttacher.connecting', { address: address.startsWith('/') ? `unix://${address}` : address });
  probe(s);
}

export function probe(s: Step): void {
  log(s, 'externalAttacher.probing');
  grpcCall(s, { kind: 'none' }, 'Probe', {}, { queue: 'startup', rpc: 'Probe' });
}

export function onStartupResult(s: Step, e: CsiResultEvent, round = 0): void {
  const lc = { kind: e.rpc === 'Probe' || e.rpc === 'GetPluginInfo' ? 'none' : 'driver' } as const;
  const err = grpcResult(s, lc, e);
  const driver = s.ctx.input.driver;
  switch (e.rpc) {
    case 'Probe': {
      const ready = (e.response?.ready as { value?: boolean } | undefined)?.value ?? true;
      if (err === null && ready) {
        grpcCall(s, { kind: 'none' }, 'GetPluginInfo', {}, { queue: 'startup', rpc: 'GetPluginInfo' });
      } else if (err === null || e.code === 'DEADLINE_EXCEEDED') {
        log(s, err === null ? 'externalAttacher.driverNotReady' : 'externalAttacher.probeTimedOut');
        s.out.push({ type: 'timer.requested', key: 'probe', at: s.now + PROBE_INTERVAL });
      } else {
        log(s, 'externalAttacher.probeFailed', { err: `CSI driver probe failed: ${err}` });
      }
      return;
    }
    case 'GetPluginInfo':
      if (err !== null) { log(s, 'externalAttacher.getDriverNameFailed', { err }); return; }
      s.ctx.driverName = typeof e.response?.name === 'string' ? e.response.name : driver.name;
      log(s, 'externalAttacher.driverName');
      grpcCall(s, { kind: 'driver' }, 'GetPluginCapabilities', {}, { queue: 'startup', rpc: 'GetPluginCapabilities' });
      return;
    case 'GetPluginCapabilities': {
      if (err !== null) { log(s, 'externalAttacher.capabilitiesFailed', { err }); return; }
      const services = capabilityNames(e.response, 'Service');
      const controller = services ? services.has('CONTROLLER_SERVICE') : driver.controllerCapabilities.length > 0;
      if (!controller) {
        s.ctx.handler = 'trivial';
        log(s, 'externalAttacher.noControllerService');
        finishStartup(s);
        return;
      }
      grpcCall(s, { kind: 'driver' }, 'ControllerGetCapabilities', {}, { queue: 'startup', rpc: 'ControllerGetCapabilities', round: 0 });
      return;
    }
    case 'ControllerGetCapabilities': {
      if (err !== null) {
        // v3.1.0's second call (supportsListVolumesPublishedNodes) only logs and goes on without the capability (main.go:192-195)
        if (round === 1) { log(s, 'externalAttacher.listVolumesPublishedNodesFailed', { err: `failed to get controller capabilities: ${err}` }); finishStartup(s); return; }
        log(s, 'externalAttacher.controllerCapabilitiesFailed', { err });
        return;
      }
      const caps = capabilityNames(e.response, 'Rpc') ?? new Set<string>(driver.controllerCapabilities);
      const twoCalls = getProfile(s.ctx.input.profile).attacherCapabilityCalls === 2;
      if (round === 0) {
        s.ctx.handler = caps.has('PUBLISH_UNPUBLISH_VOLUME') ? 'csi' : 'trivial';
        s.ctx.supportsReadOnly = caps.has('PUBLISH_READONLY');
        // (v4.x main.go supportsControllerCapabilities :327; v3.1.0 does not ask)
        s.ctx.supportsSingleNodeMultiWriter = caps.has('SINGLE_NODE_MULTI_WRITER');
        log(s, s.ctx.handler === 'csi' ? 'externalAttacher.realHandler' : 'externalAttacher.trivialHandler');
        if (twoCalls) {
          grpcCall(s, { kind: 'driver' }, 'ControllerGetCapabilities', {}, { queue: 'startup', rpc: 'ControllerGetCapabilities', round: 1 });
          return;
        }
      }
      if (caps.has('LIST_VOLUMES') && caps.has('LIST_VOLUMES_PUBLISHED_NODES')) log(s, 'externalAttacher.listVolumesPublishedNodes');
      finishStartup(s);
      return;
    }
    default:
      return;
  }
}

function finishStartup(s: Step): void {
  log(s, 'externalAttacher.starting');
}

/**
 * What main.go does next with a start-up answer, for the machine's guards: probe again (not ready, or
 * the probe timed out), fail (os.Exit(1)), go on with the next call, or start the controller.
 * Pure: the same context and answer give the same outcome as onStartupResult takes.
 */
export type StartupOutcome = 'probeAgain' | 'failed' | 'next' | 'running';

export function startupOutcome(ctx: ExternalAttacherContext, e: CsiResultEvent): StartupOutcome | undefined {
  const p = ctx.pending[e.requestId];
  if (!p || p.queue !== 'startup') return undefined;
  const ok = e.code === 'OK';
  switch (e.rpc) {
    case 'Probe': {
      const ready = (e.response?.ready as { value?: boolean } | undefined)?.value ?? true;
      if (ok && ready) return 'next';
      return ok || e.code === 'DEADLINE_EXCEEDED' ? 'probeAgain' : 'failed';
    }
    case 'GetPluginInfo': return ok ? 'next' : 'failed';
    case 'GetPluginCapabilities': {
      if (!ok) return 'failed';
      const services = capabilityNames(e.response, 'Service');
      const controller = services ? services.has('CONTROLLER_SERVICE') : ctx.input.driver.controllerCapabilities.length > 0;
      return controller ? 'next' : 'running';
    }
    case 'ControllerGetCapabilities':
      if (!ok) return (p.round ?? 0) === 1 ? 'running' : 'failed';
      return (p.round ?? 0) === 0 && getProfile(ctx.input.profile).attacherCapabilityCalls === 2 ? 'next' : 'running';
    default: return undefined;
  }
}
