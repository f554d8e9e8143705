import type { Task } from '@pty-ws/protocol';
import { A2A_TYPES, a2aJson, fromProtoMessage, ProtoJsonError, toProtoMessage } from '../src';

const task: Task = {
  id: '0190a3c4-0000-7000-8000-000000000001',
  context_id: 'ctx-1',
  status: {
    state: 'COMPLETED',
    timestamp: '2026-11-30T14:00:00.123Z',
    message: { message_id: 'm2', role: 'ROLE_AGENT', parts: [{ text: 'done' }], context_id: 'ctx-1' },
  },
  artifacts: [
    {
      artifact_id: 'a1',
      name: 'stdout',
      parts: [{ text: 'hello\n' }, { raw: 'AAEC/w==', media_type: 'application/octet-stream', filename: 'x.bin' }],
      metadata: { truncated: false, nested: { list: [1, 'two', null, { deep: true }] } },
    },
  ],
  history: [
    {
      message_id: 'm1',
      role: 'ROLE_USER',
      parts: [{ data: { cmd: ['ls', '-l'], n: 1.5 } }, { url: 'https://example.com/f' }, { data: [1, 2] }],
      reference_task_ids: ['t0'],
    },
  ],
  metadata: { exit_code: 0, signal: null, timed_out: false },
};

describe('proto3 JSON mapping of the A2A messages', () => {
  it('a task survives JSON → protobuf wire bytes → JSON unchanged', () => {
    expect(a2aJson().roundTrip(A2A_TYPES.Task, task)).toEqual(task);
  });

  it('writes task states without the TASK_STATE_ prefix and reads both spellings', () => {
    const proto = toProtoMessage(A2A_TYPES.TaskStatus, { state: 'INPUT_REQUIRED', timestamp: task.status.timestamp });
    expect(proto['state']).toBe('TASK_STATE_INPUT_REQUIRED');
    const full = toProtoMessage(A2A_TYPES.TaskStatus, { state: 'TASK_STATE_CANCELED' });
    expect(fromProtoMessage(A2A_TYPES.TaskStatus, full)).toEqual({ state: 'CANCELED' });
  });

  it('timestamps: any RFC 3339 offset in, UTC out, millisecond precision as toISOString writes it', () => {
    const at = (ts: string) => a2aJson().roundTrip(A2A_TYPES.TaskStatus, { state: 'WORKING', timestamp: ts });
    expect(at('2026-11-30T15:00:00+01:00')).toEqual({ state: 'WORKING', timestamp: '2026-11-30T14:00:00.000Z' });
    expect(at('2026-11-30T14:00:00.000001Z').timestamp).toBe('2026-11-30T14:00:00.000001Z');
    expect(at('2026-11-30T14:00:00.5Z').timestamp).toBe('2026-11-30T14:00:00.500Z');
  });

  it('leaves the binding-only `final` out of TaskStatusUpdateEvent, at any depth', () => {
    const ev = { task_id: 't', context_id: 'c', status: { state: 'COMPLETED' }, final: true };
    expect(toProtoMessage(A2A_TYPES.TaskStatusUpdateEvent, ev)).not.toHaveProperty('final');
    const { final: _final, ...inProto } = ev;
    expect(a2aJson().roundTrip(A2A_TYPES.StreamResponse, { status_update: ev })).toEqual({ status_update: inProto });
  });

  it('reads v0.3 spellings the WebSocket still accepts (file parts, lowercase roles) as v1.0', () => {
    const legacy = {
      message_id: 'm',
      role: 'user',
      parts: [{ file: { bytes: 'AA==', name: 'a', mime_type: 'text/plain' } }, { file: { uri: 'https://x/y' } }],
    };
    expect(a2aJson().roundTrip(A2A_TYPES.Message, legacy)).toEqual({
      message_id: 'm',
      role: 'ROLE_USER',
      parts: [{ raw: 'AA==', filename: 'a', media_type: 'text/plain' }, { url: 'https://x/y' }],
    });
  });

  it.each([
    ['unknown field', { ...task, colour: 'red' }, 'Task.colour'],
    ['wrong scalar type', { ...task, id: 7 }, 'Task.id'],
    ['bad enum', { ...task, status: { state: 'DONE' } }, 'Task.status.state'],
    ['bad timestamp', { ...task, status: { state: 'WORKING', timestamp: 'yesterday' } }, 'Task.status.timestamp'],
    [
      'two oneof members',
      { ...task, history: [{ message_id: 'm', role: 'ROLE_USER', parts: [{ text: 'a', url: 'b' }] }] },
      'Task.history[0].parts[0].url',
    ],
    ['non-array repeated', { ...task, artifacts: {} }, 'Task.artifacts'],
    [
      'bad base64',
      { ...task, artifacts: [{ artifact_id: 'a', parts: [{ raw: '***' }] }] },
      'Task.artifacts[0].parts[0].raw',
    ],
  ])('rejects %s, naming the field', (_what, json, at) => {
    let caught: unknown;
    try {
      a2aJson().toProto(A2A_TYPES.Task, json, 'Task');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProtoJsonError);
    expect((caught as ProtoJsonError).path).toBe(at);
  });
});
