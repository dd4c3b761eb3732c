/**
 * csi-flows: the public API. Real Kubernetes CSI components as pure XState v5 machines, a simulated
 * cluster to run them on a virtual clock, scenarios as data, and traces with real klog lines.
 *
 *   import { runScenario, SCENARIOS, Cluster, kubeletMachine } from 'csi-flows';
 *   const trace = runScenario('pod-migration', { k8s: '1.20' });
 */

// scenarios and traces
export { runScenario, getScenario, resolveScenario, parseFault, faultText, ScenarioError, type RunOptions, type RunAction, type DriverCapabilities } from './scenarios/run.ts';
export { parseDriverText, driverText } from './view/whatif.ts';
export type { ScenarioErrorLocation } from './scenarios/errors.ts';
export { compileScenario, genericDriver, checkFault, RESTARTABLE, type ScenarioSpec, type DriverSpec, type ScenarioNode, type StoryAction } from './scenarios/spec.ts';
export { scenarioFromManifests, type ManifestOptions } from './scenarios/manifests.ts';
export { scenarioFile, type ScenarioFile, type ScenarioFileOptions } from './scenarios/scenarioFile.ts';
export { SCENARIOS } from './scenarios/index.ts';
export { buildComponents, CONTROL_PLANE_HOST, CSI_CONTROLLER_HOST } from './scenarios/topology.ts';
export type { Scenario, ScenarioData, ScenarioOptions, NodeSpec, BackendVolume } from './scenarios/types.ts';
export type { Trace, TraceStep, StepKind, StepCause, ObjectChange } from './cluster/trace.ts';
export { sequenceMessages, toMermaidSequence, type SequenceMessage } from './diagram/sequence.ts';
export { toMermaidStateChart, describeStates, mermaidLabel, isTaken, takenKey, type StateChartOptions, type StateInfo, type StateTransitionInfo, type TakenStates } from './diagram/stateChart.ts';
export { checkInvariants, RULES, type Violation, type Rule } from './checks/invariants.ts';

// the cluster
export { Cluster, nodeOf, type ClusterOptions, type ComponentSpec, type UserAction, type StateMove } from './cluster/cluster.ts';
export {
  parseFaultText, faultToText, parseDuration, formatDuration, FaultSyntaxError, hostErrorText,
  type CsiFault, type ApiFault, type InformerDelay, type HostFault, type Fault, type FaultReport,
} from './cluster/faults.ts';
export { ApiServer, mergePatch, type ApiOutcome, type ApiChange } from './cluster/apiServer.ts';
export { catalog } from './catalog.ts';
export { PROFILES, PROFILE_IDS, getProfile, isProfileId, type Profile } from './profiles/index.ts';
export { DRIVERS, getDriver, type DriverProfile } from './drivers/index.ts';

// shared vocabulary
export type * from './shared/contract.ts';
export type {
  K8sObject, AnyObject, TypedObject, KindShapes, Kind, ObjectMeta, AccessMode, Condition, PodSpec, PodStatus,
  PersistentVolumeClaimSpec, PersistentVolumeSpec, VolumeError,
} from './shared/k8s.ts';

// building scenarios and testing with them
export { GiB, storageClass, csiDriver, node, pvc, pod, statefulSet, boundPv, boundPvc, s as seconds, type DriverRef } from './scenarios/objects.ts';
export { objectAt, objectsOf, phaseAt, firstStep, stepsWhere, rpcCalls, eventsOf, type StepMatcher, type RpcCall, type RecordedEvent } from './testing/query.ts';
export { createHarness, MachineHarness, type HarnessOptions, type Pending } from './testing/harness.ts';
export {
  defineMessages, renderMessage, renderTemplate, formatRegex,
  type MessageDef, type MessageCatalog, type LogFormat, type ProfileId, type Severity, type Stage, type LogSource,
} from './shared/messages.ts';
export { klogHeader, journaldPrefix, type LogStream } from './shared/klog.ts';
export { volumeAttachmentName, uniqueVolumeName, attacherFinalizer, deviceMountPath, podVolumePath } from './shared/names.ts';
export { GRPC_CODES, CSI_RPCS, isFinalError, csiMethod, rpcErrorText, type CsiRpc, type GrpcCode } from './shared/csi.ts';
export * as timing from './shared/timing.ts';
export { createRng, type Rng } from './shared/rng.ts';
export { sendChecked, EventNotAcceptedError } from './shared/send.ts';

// the machines, one per real component
export { pvControllerMachine, pvcPhaseMachine, pvPhaseMachine, descriptor as pvControllerDescriptor } from './pv-controller/index.ts';
export { externalProvisionerMachine, descriptor as externalProvisionerDescriptor } from './external-provisioner/index.ts';
export {
  attachDetachControllerMachine, adcWorld, type AdcWorld, descriptor as attachDetachControllerDescriptor, attachStateMachine, attachVolumeMachine, detachVolumeMachine,
} from './attach-detach-controller/index.ts';
export { nodeLifecycleControllerMachine, descriptor as nodeLifecycleControllerDescriptor } from './node-lifecycle-controller/index.ts';
export { statefulSetControllerMachine, descriptor as statefulSetControllerDescriptor } from './statefulset-controller/index.ts';
export { kubeSchedulerMachine, descriptor as kubeSchedulerDescriptor } from './kube-scheduler/index.ts';
export { externalAttacherMachine, descriptor as externalAttacherDescriptor } from './external-attacher/index.ts';
export { externalResizerMachine, descriptor as externalResizerDescriptor } from './external-resizer/index.ts';
export { externalSnapshotterMachine, descriptor as externalSnapshotterDescriptor } from './external-snapshotter/index.ts';
export {
  csiControllerPluginMachine, csiNodePluginMachine, csiVolumeLifecycleMachine, cephJournalView,
  controllerDescriptor as csiControllerPluginDescriptor, nodeDescriptor as csiNodePluginDescriptor,
} from './csi-plugin/index.ts';
export {
  kubeletMachine, kubeletWorld, type KubeletWorld, descriptor as kubeletDescriptor, attachedVolumeMachine, mountedPodMachine,
  verifyControllerAttachedVolumeMachine, mountVolumeMachine, unmountVolumeMachine, unmountDeviceMachine,
  expandInUseVolumeMachine, mapVolumeMachine, unmapVolumeMachine, unmapDeviceMachine,
} from './kubelet/index.ts';
export { nodeDriverRegistrarMachine, descriptor as nodeDriverRegistrarDescriptor } from './node-driver-registrar/index.ts';
export { pvcProtectionControllerMachine, descriptor as pvcProtectionControllerDescriptor } from './pvc-protection-controller/index.ts';
export { expandControllerMachine, descriptor as expandControllerDescriptor } from './expand-controller/index.ts';
export { pvProtectionControllerMachine, descriptor as pvProtectionControllerDescriptor } from './pv-protection-controller/index.ts';

// the flow model: a trace reshaped for stepping through it (the site's player and step lists)
export { buildFlowModel, diffPaths, linesOf, toYaml, inspectorView } from './view/buildFlow.ts';
export {
  objectsAt, timersAt, messageAt, versionAt, mermaidWindow, formatOffset, causeText, INSPECTED_KINDS, FLOW_MODEL_VERSION,
  type FlowModel, type FlowStep, type FlowLane, type ObjectTrack, type ObjectVersion, type WorldTrack, type WorldVersion, type FlowTimer,
  type FlowChart, type StepMachine,
} from './view/flow.ts';
// which machine a step's `states` entry is a state of, and what the traces show the machines doing
export { stateEntries, machineOfSubject, TakenTally, flowChart, type StateEntry } from './view/lifecycles.ts';
export { backoffTimers, type WorldTimer } from './shared/nestedPendingOperations.ts';
export { parseKlog, identifyLine, locateQuotedLines, parseQuotedLog, type KlogLine, type Identified } from './view/locate.ts';

// the log explainer: real lines → component, stage, our flow's step, and where the flow stopped
export { buildKnowledge, stepUrl } from './explain/knowledge.ts';
export { explainText, explainLines, decodeInput, splitLines, guessStage, STAGE_ORDER, MAX_LINE, type ExplainOptions } from './explain/explain.ts';
export { ExplainInputError, type Knowledge, type ExplainedLine, type ExplainSummary, type ExplainResult, type StepRef, type KnownMessage, type KnownEventReason } from './explain/types.ts';
export { EVENT_REASONS, stageOfEventReason, type EventReasonInfo } from './shared/eventReasons.ts';
export { stageOfMethod } from './shared/csi.ts';
