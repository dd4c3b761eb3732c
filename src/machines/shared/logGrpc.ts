/**
 * csi-lib-utils' LogGRPC, the gRPC client interceptor on every sidecar's connection to its driver: its lines
 * as the profiles' sidecars print them, one table for all of them. 1.20's sidecars (csi-provisioner v2.1.0,
 * csi-attacher v3.1.0, csi-resizer v1.1.0, csi-snapshotter v4.0.0) vendor csi-lib-utils v0.9.0, whose printf
 * lines are connection.go:182-186; 1.30's (v5.0.1, v4.6.1, v1.11.1, v8.0.1) vendor v0.18.1, whose structured
 * "GRPC call" (:264) carries the request and "GRPC response" (:270) the error, with no lines of their own for
 * those. A sidecar whose logger carries keys prints them first (`kv`, csi-attacher's driver= and
 * VolumeAttachment=); the 1.30 response's error placeholder is the caller's.
 * upstream: kubernetes-csi/csi-lib-utils connection/connection.go LogGRPC, read at v0.9.0 and v0.18.1.
 */
import type { LogFormat, ProfileId } from './messages.ts';

type Formats = Partial<Record<ProfileId, LogFormat>>;

export const logGrpcFormats = {
  call: (kv = ''): Formats => ({
    '1.20': { file: 'connection.go', line: 182, text: 'GRPC call: {method}', v: 5 },
    '1.30': { file: 'connection.go', line: 264, msg: 'GRPC call', kv: `${kv}method={method:q} request={request:q}`, v: 5 },
  }),
  request: (): Formats => ({ '1.20': { file: 'connection.go', line: 183, text: 'GRPC request: {request}', v: 5 } }),
  response: (err: string, kv = ''): Formats => ({
    '1.20': { file: 'connection.go', line: 185, text: 'GRPC response: {response}', v: 5 },
    '1.30': { file: 'connection.go', line: 270, msg: 'GRPC response', kv: `${kv}response={response:q} err=${err}`, v: 5 },
  }),
  error: (): Formats => ({ '1.20': { file: 'connection.go', line: 186, text: 'GRPC error: {err}', v: 5 } }),
};
