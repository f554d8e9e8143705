/**
 * The A2A v1.0 JSON mapping checked against the text of the vendored proto: field names, REQUIRED
 * fields and enum names are read from `proto/lf/a2a/v1/a2a.proto` itself (not from the reflection
 * the mapping uses), so a change on either side fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Task } from '@pty-ws/protocol';
import { A2A_TYPES, A2A_PROTO, PROTO_DIR, fromA2aV1, toA2aV1 } from '../src';

interface ProtoField {
  name: string;
  type: string;
  repeated: boolean;
  map: boolean;
  required: boolean;
}

/** message name → fields, and enum name → value names, from the proto text (nested oneofs flattened). */
function readProto(text: string): { messages: Map<string, ProtoField[]>; enums: Map<string, string[]> } {
  const messages = new Map<string, ProtoField[]>();
  const enums = new Map<string, string[]>();
  const stack: { kind: 'message' | 'enum' | 'block'; name: string }[] = [];
  const FIELD =
    /^(repeated\s+|optional\s+)?(map<\s*\w+\s*,\s*([\w.]+)\s*>|[\w.]+)\s+(\w+)\s*=\s*\d+\s*(\[[^\]]*\])?\s*;/;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (line === '') continue;
    const open = /^(message|enum|oneof|service)\s+(\w+)\s*\{/.exec(line);
    if (open) {
      const kind = open[1] === 'message' ? 'message' : open[1] === 'enum' ? 'enum' : 'block';
      stack.push({ kind, name: open[2]! });
      if (kind === 'message') messages.set(open[2]!, []);
      if (kind === 'enum') enums.set(open[2]!, []);
      continue;
    }
    if (line.startsWith('}')) {
      stack.pop();
      continue;
    }
    const owner = [...stack].reverse().find((s) => s.kind !== 'block');
    if (!owner || stack.some((s) => s.name === 'A2AService')) continue;
    if (owner.kind === 'enum') {
      const v = /^(\w+)\s*=\s*\d+/.exec(line);
      if (v) enums.get(owner.name)!.push(v[1]!);
      continue;
    }
    const f = FIELD.exec(line);
    if (!f) continue;
    messages.get(owner.name)!.push({
      name: f[4]!,
      type: (f[3] ?? f[2]!).replace(/^.*\./, ''),
      repeated: f[1]?.trim() === 'repeated',
      map: f[3] !== undefined,
      required: (f[5] ?? '').includes('REQUIRED'),
    });
  }
  return { messages, enums };
}

const PROTO = readProto(readFileSync(path.join(PROTO_DIR, A2A_PROTO), 'utf8'));
const lowerCamel = (s: string) => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** Every key of `json` is a lowerCamelCase field of `message`, every REQUIRED field is present; recursive. */
function expectShape(message: string, json: unknown, at = message): void {
  const fields = PROTO.messages.get(message);
  if (!fields) throw new Error(`${message} is not in the proto`);
  expect(typeof json).toBe('object');
  const obj = json as Record<string, unknown>;
  for (const [key, value] of Object.entries(obj)) {
    const field = fields.find((f) => lowerCamel(f.name) === key);
    if (!field) throw new Error(`${at}.${key} is not a field of ${message} (or not in lowerCamelCase)`);
    const items = field.map ? Object.values(value as object) : field.repeated ? (value as unknown[]) : [value];
    for (const [i, item] of items.entries()) {
      if (PROTO.messages.has(field.type)) expectShape(field.type, item, `${at}.${key}[${i}]`);
      const values = PROTO.enums.get(field.type);
      if (values && !values.includes(item as string))
        throw new Error(`${at}.${key}: ${String(item)} is not a ${field.type}`);
    }
  }
  for (const f of fields.filter((x) => x.required && !PROTO.messages.has(x.type))) {
    if (!(lowerCamel(f.name) in obj)) throw new Error(`${at}: REQUIRED ${lowerCamel(f.name)} is missing`);
  }
}

const task: Task = {
  id: 't1',
  context_id: 'ctx-1',
  status: {
    state: 'COMPLETED',
    timestamp: '2026-11-30T14:00:00.123Z',
    message: { message_id: 'm2', role: 'ROLE_AGENT', parts: [{ text: 'done' }], context_id: 'ctx-1', task_id: 't1' },
  },
  artifacts: [
    {
      artifact_id: 'a1',
      parts: [{ text: 'hi' }, { raw: 'AAEC', media_type: 'application/octet-stream', filename: 'x.bin' }],
      metadata: { exit_code: 0, snake_key: 'kept' },
    },
  ],
  history: [
    { message_id: 'm1', role: 'ROLE_USER', parts: [{ url: 'https://example.com/f' }], reference_task_ids: ['t0'] },
  ],
  metadata: { session_id: 's1' },
};

describe('A2A v1.0 JSON (toA2aV1 / fromA2aV1) against the vendored proto', () => {
  it('the proto text is read (the test would pass vacuously otherwise)', () => {
    expect(PROTO.messages.get('Task')?.map((f) => f.name)).toEqual(
      expect.arrayContaining(['id', 'context_id', 'status', 'artifacts', 'history', 'metadata']),
    );
    expect(PROTO.enums.get('TaskState')).toContain('TASK_STATE_COMPLETED');
  });

  it('a task: lowerCamelCase names, full enum names, Struct keys untouched', () => {
    const json = toA2aV1(A2A_TYPES.Task, task);
    expectShape('Task', json);
    expect(json).toMatchObject({
      contextId: 'ctx-1',
      status: { state: 'TASK_STATE_COMPLETED', message: { messageId: 'm2', role: 'ROLE_AGENT', taskId: 't1' } },
      artifacts: [{ artifactId: 'a1', parts: [{ text: 'hi' }, { mediaType: 'application/octet-stream' }] }],
      history: [{ referenceTaskIds: ['t0'] }],
      metadata: { session_id: 's1' },
    });
    expect((json['artifacts'] as { metadata: unknown }[])[0]!.metadata).toEqual({ exit_code: 0, snake_key: 'kept' });
    expect(JSON.stringify(json)).not.toMatch(/"[a-z]+_[a-z_]+":(?!\s*("kept"|0|"s1"))/);
  });

  it('stream events: statusUpdate/artifactUpdate without the binding-only final, REQUIRED ids present', () => {
    const status = toA2aV1(A2A_TYPES.StreamResponse, {
      status_update: { task_id: 't1', context_id: 'ctx-1', status: { state: 'WORKING' }, final: false },
    });
    expectShape('StreamResponse', status);
    expect(status).toEqual({
      statusUpdate: { taskId: 't1', contextId: 'ctx-1', status: { state: 'TASK_STATE_WORKING' } },
    });
    const artifact = toA2aV1(A2A_TYPES.StreamResponse, {
      artifact_update: { task_id: 't1', context_id: 'ctx-1', artifact: task.artifacts![0], last_chunk: true },
    });
    expectShape('StreamResponse', artifact);
    expect(artifact['artifactUpdate']).toMatchObject({ lastChunk: true, artifact: { artifactId: 'a1' } });
  });

  it('REQUIRED fields at their default value are written (ListTasksResponse.nextPageToken "")', () => {
    const json = toA2aV1(A2A_TYPES.ListTasksResponse, { tasks: [], next_page_token: '', page_size: 50, total_size: 0 });
    expectShape('ListTasksResponse', json);
    expect(json).toEqual({ tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 });
  });

  it('an AgentCard: supportedInterfaces, securitySchemes as the proto oneof, securityRequirements', () => {
    const json = toA2aV1(A2A_TYPES.AgentCard, {
      name: 'n',
      description: 'd',
      version: '1',
      supported_interfaces: [{ url: 'http://h/a2a/v1', protocol_binding: 'HTTP+JSON', protocol_version: '1.0' }],
      capabilities: {
        streaming: true,
        push_notifications: false,
        extensions: [{ uri: 'u', params: { max_controllers: 4 } }],
      },
      security_schemes: { bearer: { http_auth_security_scheme: { scheme: 'Bearer' } } },
      security_requirements: [{ schemes: { bearer: { list: [] } } }],
      default_input_modes: ['text/plain'],
      default_output_modes: ['text/plain'],
      skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
    });
    expectShape('AgentCard', json);
    expect(json).toMatchObject({
      supportedInterfaces: [{ protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
      capabilities: { pushNotifications: false, extensions: [{ params: { max_controllers: 4 } }] },
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      // An empty StringList is `{}` in ProtoJSON (its `list` is not REQUIRED).
      securityRequirements: [{ schemes: { bearer: {} } }],
      defaultInputModes: ['text/plain'],
    });
  });

  it('a push config: taskId, credentials-free authentication', () => {
    const json = toA2aV1(A2A_TYPES.TaskPushNotificationConfig, {
      task_id: 't1',
      id: 'c1',
      url: 'https://hook',
      authentication: { scheme: 'Bearer' },
    });
    expectShape('TaskPushNotificationConfig', json);
    expect(json).toEqual({ taskId: 't1', id: 'c1', url: 'https://hook', authentication: { scheme: 'Bearer' } });
  });

  it('fromA2aV1 reads what clients send (camelCase, full enums) back into the wire JSON', () => {
    expect(fromA2aV1(A2A_TYPES.Task, toA2aV1(A2A_TYPES.Task, task))).toEqual(task);
    expect(
      fromA2aV1(A2A_TYPES.Message, { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }], contextId: 'c' }),
    ).toEqual({ message_id: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }], context_id: 'c' });
  });

  it('a field the proto lacks is refused, not passed on', () => {
    expect(() => toA2aV1(A2A_TYPES.Task, { ...task, session_id: 's1' })).toThrow(/session_id/);
  });
});
