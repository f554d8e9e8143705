import { protoRoot } from './loader';
import { ProtoJson, type JsonObject, type ProtoObject } from './proto-json';

/** Full names of the A2A v1.0 messages the bindings carry. */
export const A2A_TYPES = {
  Task: 'lf.a2a.v1.Task',
  Message: 'lf.a2a.v1.Message',
  Part: 'lf.a2a.v1.Part',
  Artifact: 'lf.a2a.v1.Artifact',
  TaskStatus: 'lf.a2a.v1.TaskStatus',
  TaskStatusUpdateEvent: 'lf.a2a.v1.TaskStatusUpdateEvent',
  TaskArtifactUpdateEvent: 'lf.a2a.v1.TaskArtifactUpdateEvent',
  StreamResponse: 'lf.a2a.v1.StreamResponse',
  SendMessageRequest: 'lf.a2a.v1.SendMessageRequest',
  SendMessageResponse: 'lf.a2a.v1.SendMessageResponse',
  ListTasksResponse: 'lf.a2a.v1.ListTasksResponse',
  TaskPushNotificationConfig: 'lf.a2a.v1.TaskPushNotificationConfig',
  ListTaskPushNotificationConfigsResponse: 'lf.a2a.v1.ListTaskPushNotificationConfigsResponse',
  AgentCard: 'lf.a2a.v1.AgentCard',
} as const;

/**
 * Fields pty-ws/v1 adds to A2A v1.0 messages. `TaskStatusUpdateEvent.final` was dropped by v1.0
 * (it follows from the state); the WebSocket binding keeps sending it for its clients.
 */
export const BINDING_ONLY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  [A2A_TYPES.TaskStatusUpdateEvent]: ['final'],
};

let codec: ProtoJson | undefined;

/**
 * The JSON mapping of the pty-ws/v1 wire: proto3 JSON with original field names, task states
 * without their `TASK_STATE_` prefix (as the binding text writes them); v0.3 spellings that wire
 * still accepts (`file` parts, lowercase roles) are read as their v1.0 equivalents, without loss.
 */
export function a2aJson(): ProtoJson {
  codec ??= new ProtoJson(protoRoot(), {
    shortEnumPrefixes: { '.lf.a2a.v1.TaskState': 'TASK_STATE_' },
    upgrade: (typeName, json) => upgradeLegacy(typeName, stripBindingOnly(typeName, json)),
  });
  return codec;
}

/** A2A JSON as the WebSocket binding writes it → the proto object grpc-js sends (binding-only fields left out, at any depth). */
export function toProtoMessage(typeName: string, json: unknown): ProtoObject {
  return a2aJson().toProto(typeName, json);
}

/** A decoded proto message → the JSON the WebSocket binding writes (without binding-only fields). */
export function fromProtoMessage<T = JsonObject>(typeName: string, message: object): T {
  return a2aJson().fromProto(typeName, message as ProtoObject) as T;
}

function stripBindingOnly(typeFullName: string, json: Record<string, unknown>): Record<string, unknown> {
  const drop = BINDING_ONLY_FIELDS[typeFullName.replace(/^\./, '')];
  if (!drop) return json;
  return Object.fromEntries(Object.entries(json).filter(([k]) => !drop.includes(k)));
}

const LEGACY_ROLES: Readonly<Record<string, string>> = { user: 'ROLE_USER', agent: 'ROLE_AGENT' };

function upgradeLegacy(typeFullName: string, json: Record<string, unknown>): Record<string, unknown> {
  if (typeFullName === '.lf.a2a.v1.Message') {
    const role = json['role'];
    return typeof role === 'string' && LEGACY_ROLES[role] ? { ...json, role: LEGACY_ROLES[role] } : json;
  }
  if (typeFullName !== '.lf.a2a.v1.Part') return json;
  const file = json['file'];
  if (file === null || typeof file !== 'object' || Array.isArray(file)) return json;
  // v0.3 FilePart {bytes | uri, name, mime_type} → v1.0 Part fields.
  const { file: _file, ...rest } = json;
  const f = file as { bytes?: unknown; uri?: unknown; name?: unknown; mime_type?: unknown };
  return {
    ...rest,
    ...(f.bytes !== undefined ? { raw: f.bytes } : {}),
    ...(f.uri !== undefined ? { url: f.uri } : {}),
    ...(f.name !== undefined ? { filename: f.name } : {}),
    ...(f.mime_type !== undefined ? { media_type: f.mime_type } : {}),
  };
}
