/**
 * node-driver-registrar log lines. '1.20': v2.1.0 (printf); '1.30': v2.11.1 (structured, contextual).
 * upstream: kubernetes-csi/node-driver-registrar cmd/csi-node-driver-registrar/main.go and
 * node_register.go at tags v2.1.0 and v2.11.1 (file:line read at those tags).
 */
import { defineMessages } from '../shared/messages.ts';

export const messages = defineMessages({
  'nodeDriverRegistrar.version': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'node-driver-registrar {version} starts.',
    formats: {
      '1.20': { file: 'main.go', line: 113, text: 'Version: {version}' },
      '1.30': { file: 'main.go', line: 150, msg: 'Version', kv: 'version={version:q}' },
    },
  },
  'nodeDriverRegistrar.runningMode': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'node-driver-registrar runs in registration mode.',
    // --mode is deprecated and defaults to "" in v2.11.1 (main.go:65); the usual manifests do not set it
    formats: { '1.30': { file: 'main.go', line: 151, msg: 'Running node-driver-registrar', kv: 'mode=""' } },
  },
  'nodeDriverRegistrar.openingConnection': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'node-driver-registrar connects to the CSI driver socket {csiAddress}.',
    formats: {
      '1.20': { file: 'main.go', line: 137, v: 1, text: 'Attempting to open a gRPC connection with: {csiAddress:q}' },
      '1.30': { file: 'main.go', line: 172, v: 1, msg: 'Attempting to open a gRPC connection', kv: 'csiAddress={csiAddress:q}' },
    },
  },
  'nodeDriverRegistrar.discoveringName': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'node-driver-registrar asks the CSI driver for its name (GetPluginInfo).',
    formats: {
      '1.20': { file: 'main.go', line: 144, v: 1, text: 'Calling CSI driver to discover driver name' },
      '1.30': { file: 'main.go', line: 180, v: 1, msg: 'Calling CSI driver to discover driver name' },
    },
  },
  'nodeDriverRegistrar.driverName': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'The CSI driver says its name is {driver}.',
    formats: {
      '1.20': { file: 'main.go', line: 154, v: 2, text: 'CSI driver name: {driver:q}' },
      '1.30': { file: 'main.go', line: 189, v: 2, msg: 'CSI driver name', kv: 'csiDriverName={driver:q}' },
    },
  },
  'nodeDriverRegistrar.driverNameFailed': {
    source: 'node-driver-registrar', stage: 'register', severity: 'E',
    summary: 'node-driver-registrar could not get the driver name: {err}',
    cause: 'The CSI node plugin did not answer GetPluginInfo within --timeout (1s) or answered an error.',
    next: 'Check that the node plugin container runs and listens on --csi-address; the registrar exits and restarts.',
    formats: {
      '1.20': { file: 'main.go', line: 150, text: 'error retreiving CSI driver name: {err}' },
      '1.30': { file: 'main.go', line: 186, msg: 'Error retreiving CSI driver name', kv: 'err={err:q}' },
    },
  },
  'nodeDriverRegistrar.startingServer': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'node-driver-registrar opens its registration socket {socketPath}.',
    formats: {
      '1.20': { file: 'node_register.go', line: 52, text: 'Starting Registration Server at: {socketPath}' },
      '1.30': { file: 'node_register.go', line: 56, msg: 'Starting Registration Server', kv: 'socketPath={socketPath:q}' },
    },
  },
  'nodeDriverRegistrar.serverStarted': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'The registration socket {socketPath} is listening; the kubelet\'s plugin watcher will find it.',
    formats: {
      '1.20': { file: 'node_register.go', line: 61, text: 'Registration Server started at: {socketPath}' },
      '1.30': { file: 'node_register.go', line: 66, msg: 'Registration Server started', kv: 'socketPath={socketPath:q}' },
    },
  },
  'nodeDriverRegistrar.getInfo': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'The kubelet asks node-driver-registrar which plugin it registers (GetInfo).',
    formats: {
      '1.20': { file: 'main.go', line: 80, text: 'Received GetInfo call: &InfoRequest{}' },
      '1.30': { file: 'main.go', line: 96, msg: 'Received GetInfo call', kv: 'request="&InfoRequest{}"' },
    },
  },
  'nodeDriverRegistrar.notifyRegistrationStatus': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'The kubelet reports the registration result to node-driver-registrar: registered={registered}.',
    formats: {
      '1.20': { file: 'main.go', line: 90, text: 'Received NotifyRegistrationStatus call: &RegistrationStatus{PluginRegistered:{registered},Error:{error},}' },
      '1.30': { file: 'main.go', line: 108, msg: 'Received NotifyRegistrationStatus call', kv: 'status="&RegistrationStatus{PluginRegistered:{registered},Error:{error},}"' },
    },
  },
  'nodeDriverRegistrar.registrationFailed': {
    source: 'node-driver-registrar', stage: 'register', severity: 'E',
    summary: 'The kubelet could not register the driver: {error}. node-driver-registrar exits to be restarted.',
    cause: 'The kubelet failed to validate the plugin or to reach the CSI node plugin (NodeGetInfo).',
    next: 'Read the kubelet log of this node around the registration; check the node plugin container.',
    formats: {
      '1.20': { file: 'main.go', line: 92, text: 'Registration process failed with error: {error}, restarting registration container.' },
      '1.30': { file: 'main.go', line: 110, msg: 'Registration process failed with error, restarting registration container', kv: 'err={error:q}' },
    },
  },
});
