/**
 * node-driver-registrar: the sidecar of the CSI node pod that announces the driver to the kubelet. It
 * asks the node plugin for its name (GetPluginInfo), opens the registration socket
 * /registration/<driver>-reg.sock (the host's <kubelet root>/plugins_registry/<driver>-reg.sock),
 * answers the kubelet's GetInfo with the driver's endpoint, and hears the kubelet's
 * NotifyRegistrationStatus.
 * upstream: kubernetes-csi/node-driver-registrar v2.1.0 and v2.11.1, cmd/csi-node-driver-registrar/
 * main.go (GetInfo, NotifyRegistrationStatus, main) and node_register.go (nodeRegister).
 * On a failed registration (NotifyRegistrationStatus with plugin_registered false) and on a failed
 * GetPluginInfo the process exits (os.Exit(1): v2.1.0 main.go:93 and :151, v2.11.1 main.go:111 and
 * klog.FlushAndExit at :187) without answering; the kubelet starts its container again, which asks
 * for the name again and re-creates the socket.
 * Left out: the health/HTTP endpoint, the kubelet-registration-probe mode, the socket's removal
 * before it is created again (CleanupSocketFile).
 */
import { and, assign, emit, setup } from 'xstate';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import { rpcErrorText } from '../shared/csi.ts';
import { REGISTRAR_TIMEOUT } from '../shared/timing.ts';
import { getProfile } from '../profiles/index.ts';

export interface NodeDriverRegistrarInput extends ComponentInput {
  /** the node it runs on */
  nodeName: string;
  /** the kubelet's --root-dir on the host ("/var/lib/kubelet" when absent) */
  kubeletRoot?: string;
  /** --csi-address inside the container ("/csi/csi.sock" when absent) */
  csiAddress?: string;
  /** the driver name, when the integrator knows it (the registrar learns it from GetPluginInfo anyway) */
  driver?: string;
}

export interface NodeDriverRegistrarContext {
  input: NodeDriverRegistrarInput;
  seq: number;
  driver: string;
  pendingRequest?: string;
}

const root = (i: NodeDriverRegistrarInput): string => i.kubeletRoot ?? '/var/lib/kubelet';
/** --kubelet-registration-path: the driver socket as the kubelet sees it on the host */
export const kubeletRegistrationPath = (i: NodeDriverRegistrarInput, driver: string): string => `${root(i)}/plugins/${driver}/csi.sock`;
/** the registration socket as the kubelet's plugin watcher sees it on the host */
export const hostRegistrationSocket = (i: NodeDriverRegistrarInput, driver: string): string => `${root(i)}/plugins_registry/${driver}-reg.sock`;

export const nodeDriverRegistrarMachine = setup({
  types: {
    context: {} as NodeDriverRegistrarContext,
    events: {} as ClusterEvent,
    emitted: {} as ClusterEmitted,
    input: {} as NodeDriverRegistrarInput,
  },
  actions: {
    /** main(): version line, connect to the driver, GetPluginInfo */
    discoverDriverName: emit(({ context }) => ({ type: 'log', msg: 'nodeDriverRegistrar.version', args: { version: getProfile(context.input.profile).sidecars.registrar } }) as ClusterEmitted),
    logConnecting: emit(() => ({ type: 'log', msg: 'nodeDriverRegistrar.runningMode', args: {} }) as ClusterEmitted),
    logOpening: emit(({ context }) => ({ type: 'log', msg: 'nodeDriverRegistrar.openingConnection', args: { csiAddress: context.input.csiAddress ?? '/csi/csi.sock' } }) as ClusterEmitted),
    logDiscovering: emit(() => ({ type: 'log', msg: 'nodeDriverRegistrar.discoveringName', args: {} }) as ClusterEmitted),
    callGetPluginInfo: emit(({ context }) => ({ type: 'csi.call', requestId: `r${context.seq + 1}`, rpc: 'GetPluginInfo', request: {}, endpoint: 'node', node: context.input.host, timeout: REGISTRAR_TIMEOUT, stage: 'register' }) as ClusterEmitted),
    countRequest: assign(({ context }) => ({ seq: context.seq + 1, pendingRequest: `r${context.seq + 1}` })),
    /** nodeRegister(): the registration server and its socket */
    startRegistrationServer: assign(({ event }) => (event.type === 'csi.result' ? { driver: String(event.response?.name ?? ''), pendingRequest: undefined } : {})),
    logServer: emit(({ context }) => ({ type: 'log', msg: 'nodeDriverRegistrar.driverName', args: { driver: context.driver } }) as ClusterEmitted),
    logStarting: emit(({ context }) => ({ type: 'log', msg: 'nodeDriverRegistrar.startingServer', args: { socketPath: `/registration/${context.driver}-reg.sock` } }) as ClusterEmitted),
    createSocket: emit(({ context }) => ({ type: 'socket.created', path: hostRegistrationSocket(context.input, context.driver) }) as ClusterEmitted),
    logStarted: emit(({ context }) => ({ type: 'log', msg: 'nodeDriverRegistrar.serverStarted', args: { socketPath: `/registration/${context.driver}-reg.sock` } }) as ClusterEmitted),
    logDriverNameFailed: emit(({ event }) => ({ type: 'log', msg: 'nodeDriverRegistrar.driverNameFailed', args: { err: event.type === 'csi.result' ? rpcErrorText(event.code, event.message ?? '') : '' } }) as ClusterEmitted),
    /** registrationServer.GetInfo */
    replyGetInfo: emit(({ context, event }) => ({
      type: 'csi.reply', requestId: event.type === 'csi.request' ? event.requestId : '', code: 'OK',
      response: { type: 'CSIPlugin', name: context.driver, endpoint: kubeletRegistrationPath(context.input, context.driver), supported_versions: ['1.0.0'] },
    }) as ClusterEmitted),
    logGetInfo: emit(() => ({ type: 'log', msg: 'nodeDriverRegistrar.getInfo', args: {} }) as ClusterEmitted),
    /** an injected fault on a call to the registration socket: it fails before the handler runs (a socket nobody accepts on, a hung server) */
    replyFault: emit(({ event }) => ({
      type: 'csi.reply', requestId: event.type === 'csi.request' ? event.requestId : '',
      code: event.type === 'csi.request' && event.fault ? event.fault.code : 'UNAVAILABLE', message: event.type === 'csi.request' ? event.fault?.message ?? '' : '',
    }) as ClusterEmitted),
    /** registrationServer.NotifyRegistrationStatus */
    logNotify: emit(({ event }) => {
      const r = event.type === 'csi.request' ? event.request : {};
      return { type: 'log', msg: 'nodeDriverRegistrar.notifyRegistrationStatus', args: { registered: !!r.plugin_registered, error: String(r.error ?? '') } } as ClusterEmitted;
    }),
    logRegistrationFailed: emit(({ event }) => ({ type: 'log', msg: 'nodeDriverRegistrar.registrationFailed', args: { error: event.type === 'csi.request' ? String(event.request.error ?? '') : '' } }) as ClusterEmitted),
    replyNotify: emit(({ event }) => ({ type: 'csi.reply', requestId: event.type === 'csi.request' ? event.requestId : '', code: 'OK', response: {} }) as ClusterEmitted),
    /** os.Exit(1): the process ends; the call being served gets no answer (its connection closes) */
    exitProcess: emit(() => ({ type: 'process.exited', code: 1 }) as ClusterEmitted),
  },
  guards: {
    isOurGetPluginInfoAnswer: ({ context, event }) => event.type === 'csi.result' && event.requestId === context.pendingRequest,
    succeeded: ({ event }) => event.type === 'csi.result' && event.code === 'OK' && !!event.response?.name,
    isFaulted: ({ event }) => event.type === 'csi.request' && !!event.fault,
    isGetInfo: ({ event }) => event.type === 'csi.request' && event.rpc === 'GetInfo',
    isRegistered: ({ event }) => event.type === 'csi.request' && event.rpc === 'NotifyRegistrationStatus' && !!event.request.plugin_registered,
    isRegistrationFailure: ({ event }) => event.type === 'csi.request' && event.rpc === 'NotifyRegistrationStatus' && !event.request.plugin_registered,
  },
}).createMachine({
  id: 'nodeDriverRegistrar',
  initial: 'stopped',
  context: ({ input }) => ({ input, seq: 0, driver: input.driver ?? '' }),
  states: {
    stopped: {
      description: 'The container is not running.',
      on: { 'component.started': { target: 'discoveringDriverName', actions: ['discoverDriverName', 'logConnecting', 'logOpening', 'logDiscovering', 'callGetPluginInfo', 'countRequest'] } },
    },
    discoveringDriverName: {
      description: 'main.go: GetPluginInfo on the node plugin to learn the driver name.',
      on: {
        'csi.result': [
          { guard: and(['isOurGetPluginInfoAnswer', 'succeeded']), target: 'serving', actions: ['startRegistrationServer', 'logServer', 'logStarting', 'createSocket', 'logStarted'] },
          { guard: 'isOurGetPluginInfoAnswer', target: 'driverNameFailed', actions: ['logDriverNameFailed', 'exitProcess'] },
        ],
        'host.shutdown': 'stopped',
      },
    },
    serving: {
      description: 'node_register.go: the registration socket is open; waiting for the kubelet.',
      on: {
        'csi.request': [
          { guard: 'isFaulted', actions: ['replyFault'] },
          { guard: 'isGetInfo', actions: ['logGetInfo', 'replyGetInfo'] },
          { guard: 'isRegistered', target: 'registered', actions: ['logNotify', 'replyNotify'] },
          { guard: 'isRegistrationFailure', target: 'registrationFailed', actions: ['logNotify', 'logRegistrationFailed', 'exitProcess'] },
        ],
        'host.shutdown': 'stopped',
      },
    },
    registered: {
      description: 'The kubelet registered the driver; the registrar keeps answering GetInfo (a restarted kubelet registers it again).',
      on: {
        'csi.request': [
          { guard: 'isFaulted', actions: ['replyFault'] },
          { guard: 'isGetInfo', actions: ['logGetInfo', 'replyGetInfo'] },
          { guard: 'isRegistered', actions: ['logNotify', 'replyNotify'] },
          // a new kubelet registers the socket again, and that can fail too: the same handler, the same exit
          { guard: 'isRegistrationFailure', target: 'registrationFailed', actions: ['logNotify', 'logRegistrationFailed', 'exitProcess'] },
        ],
        'host.shutdown': 'stopped',
      },
    },
    registrationFailed: {
      description: 'The kubelet reported a failed registration: the process exits (os.Exit(1)) before it answers, and the kubelet restarts its container.',
      on: { 'host.shutdown': 'stopped' },
    },
    driverNameFailed: {
      description: 'GetPluginInfo failed: the process exits (os.Exit(1)) and the kubelet restarts its container.',
      on: { 'host.shutdown': 'stopped' },
    },
  },
});
