/**
 * Compile-time check that the WebSocket binding's hand-written A2A types (`@pty-ws/protocol`)
 * name exactly the fields of the generated `lf.a2a.v1` messages: adding a field on one side only
 * fails the build. The only allowed difference is the binding-only `final` (BINDING_ONLY_FIELDS).
 * Value shapes (Struct as JSON, Timestamp as RFC 3339) are the proto3 JSON mapping, checked at run
 * time by tests/grpc/wire-shapes.test.ts.
 */
import type {
  Artifact,
  DataPart,
  FilePart,
  Message,
  Task,
  TaskStatus,
  TaskStatusUpdateEvent,
  TextPart,
} from '@pty-ws/protocol';
import type * as proto from './generated/a2a-types';

/** Field names on one side only (oneof discriminators of the generated types aside). */
type OnlyIn<A, B> = Exclude<keyof A, keyof B | 'content' | 'payload'>;
/** Resolves only when both directions are empty. */
type SameFields<Wire, Proto, Allowed extends PropertyKey = never> = [
  Exclude<OnlyIn<Wire, Proto>, Allowed>,
  OnlyIn<Proto, Wire>,
] extends [never, never]
  ? true
  : { wireOnly: Exclude<OnlyIn<Wire, Proto>, Allowed>; protoOnly: OnlyIn<Proto, Wire> };

type AnyPart = TextPart & DataPart & FilePart;

/** Each entry must be `true`; otherwise the error names the fields that differ. */
export type WireTypesMatchProto = [
  SameFields<Task, proto.Task>,
  SameFields<TaskStatus, proto.TaskStatus>,
  SameFields<Message, proto.Message>,
  SameFields<Artifact, proto.Artifact>,
  SameFields<AnyPart, proto.Part>,
  SameFields<TaskStatusUpdateEvent, proto.TaskStatusUpdateEvent, 'final'>,
];
export const WIRE_TYPES_MATCH_PROTO: WireTypesMatchProto = [true, true, true, true, true, true];
