import { a2aJson } from './a2a-json';
import { protoRoot } from './loader';
import { ProtoJson, type JsonObject } from './proto-json';

let codec: ProtoJson | undefined;

/**
 * The A2A v1.0 JSON of the HTTP+JSON, JSON-RPC and SSE surfaces, the AgentCard and push
 * notifications: ProtoJSON as the spec mandates it (lowerCamelCase field names, full enum names
 * such as `TASK_STATE_COMPLETED`, REQUIRED fields written even at their default value). The
 * pty-ws/v1 WebSocket frames keep their own spelling (`a2aJson()`, snake_case, as the binding
 * text writes them).
 */
function v1Json(): ProtoJson {
  codec ??= new ProtoJson(protoRoot(), { outputNames: 'json', writeRequired: true });
  return codec;
}

/**
 * The pty-ws wire JSON of an A2A message (what the core returns) → its A2A v1.0 JSON. The value
 * is checked against the message type on the way (a field the proto lacks is a ProtoJsonError),
 * binding-only fields (`final`) are left out, and Struct fields (`metadata`, extension `params`)
 * are passed through as they are: their keys are data, not field names.
 */
export function toA2aV1(typeName: string, wire: unknown): JsonObject {
  return v1Json().fromProto(typeName, a2aJson().toProto(typeName, wire));
}

/**
 * A2A JSON as clients send it → the pty-ws wire JSON. Accepts both ProtoJSON name spellings
 * (`contextId`, `context_id`), both enum spellings (`TASK_STATE_COMPLETED`, `COMPLETED`) and the
 * v0.3 forms the wire still reads (`file` parts, lowercase roles).
 */
export function fromA2aV1(typeName: string, json: unknown): JsonObject {
  return a2aJson().fromProto(typeName, a2aJson().toProto(typeName, json));
}
