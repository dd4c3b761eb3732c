/**
 * Lines printed by libraries every component links: client-go's rate limiter and the event
 * broadcaster's logging sink.
 */
import { defineMessages } from '../shared/messages.ts';

/** client-go's StartLogging line (printf): what every broadcaster started with StartLogging(klog.Infof) prints. */
const EVENT_PRINTF = 'Event(v1.ObjectReference{Kind:{kind:q}, Namespace:{namespace:q}, Name:{name:q}, UID:{uid:q}, APIVersion:{apiVersion:q}, ResourceVersion:{resourceVersion:q}, FieldPath:""}): type: \'{type}\' reason: \'{reason}\' {message}';
/** StartLogging's line at client-go v0.30.0 (event.go:377), for the programs of the 1.30 profile that vendor it and call StartLogging */
const EVENT_PRINTF_V030 = { line: 377, text: EVENT_PRINTF };

export const clusterMessages = defineMessages({
  /**
   * upstream: client-go rest/request.go tryThrottle (the seeds' sidecars print it at request.go:581);
   * newer client-go words it "Waited for … due to client-side throttling, not priority and fairness".
   */
  'clientGo.throttling': {
    source: 'csi-attacher', stage: 'other', severity: 'I',
    summary: 'The client-side rate limiter held this API request back for {latency} before sending it.',
    explain: 'client-go waited for a token of its QPS/burst budget before sending this request.',
    cause: 'The component makes more API requests than its --kube-api-qps/--kube-api-burst allow.',
    next: 'Harmless when occasional; if waits grow, raise the sidecar\'s --kube-api-qps and --kube-api-burst.',
    formats: {
      '1.20': { file: 'request.go', line: 581, text: 'Throttling request took {latency}, request: {verb}:{url}', v: 3 },
      // client-go v0.30 rest/request.go:629 klog.V(3).Info for waits over 50ms (:697 is the extra line for waits over 1s)
      '1.30': { file: 'request.go', line: 629, text: 'Waited for {latency} due to client-side throttling, not priority and fairness, request: {verb}:{url}', v: 3 },
    },
  },
  /**
   * upstream: client-go tools/record/event.go StartLogging (printf, 1.20 era) and
   * StartStructuredLogging ("Event occurred", newer releases).
   */
  'event.recorded': {
    source: 'kube-controller-manager', stage: 'other', severity: 'I',
    summary: 'A {type} event {reason} is recorded on {kind} {object}: {message}',
    explain: 'The component recorded a Kubernetes Event; its broadcaster also prints it to the log.',
    formats: {
      '1.20': {
        // as seed 000's kube-controller-manager prints it (an older client-go than v1.20.5's, whose controllers call
        // StartStructuredLogging and print "Event occurred" at event.go:291: the profile follows the seed here); the sidecars of this profile vendor client-go v0.20.0, where
        // StartLogging's logf is at :282 (csi-provisioner v2.1.0, csi-resizer v1.1.0, csi-snapshotter v4.0.0, and the
        // snapshot-controller of the same release: common-controller snapshot_controller_base.go:81; csi-attacher v3.1.0 and
        // v4.6.1 only record their Events to the API, pkg/controller/controller.go NewCSIAttachController: no line)
        file: 'event.go', line: 278, lineBySource: { 'csi-provisioner': 282, 'csi-resizer': 282, 'csi-snapshotter': 282, 'snapshot-controller': 282 },
        text: EVENT_PRINTF,
      },
      '1.30': {
        file: 'event.go', line: 389,
        msg: 'Event occurred', kv: 'object={object:q} fieldPath="" kind={kind:q} apiVersion={apiVersion:q} type={type:q} reason={reason:q} message={message:q}',
        // csi-snapshotter v8.0.1 logs its Events with StartLogging(klog.Infof) (pkg/sidecar-controller/
        // snapshot_controller_base.go:99), and so does the snapshot-controller of the same release
        // (pkg/common-controller/snapshot_controller_base.go:111): the printf form, at client-go v0.30.0's event.go:377
        bySource: {
          'csi-snapshotter': EVENT_PRINTF_V030,
          'snapshot-controller': EVENT_PRINTF_V030,
        },
      },
    },
  },
});
