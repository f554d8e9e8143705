import type { LogEntry } from '@pty-ws/ports';
import { serializeEntry } from '../src/ws/serialized-frame';

/** What every socket of a frame is sent: one serialization per format, UTF-8 made once. */
describe('serializeEntry', () => {
  const event: LogEntry = {
    type: 'event',
    seq: 7,
    id: 'id-7',
    ts: Date.UTC(2026, 11, 6),
    op: 'pty.session_frame',
    payload: { kind: 'MembershipChanged', label: 'Zoë ✓ 🖥️' },
  };

  it("encodes an event's JSON text as UTF-8 once, whatever it holds", () => {
    const frame = serializeEntry(event);
    expect(Buffer.from(frame.jsonBytes).toString('utf8')).toBe(frame.json);
    expect(JSON.parse(Buffer.from(frame.jsonBytes).toString('utf8'))).toMatchObject({
      sequence: 7,
      payload: { label: 'Zoë ✓ 🖥️' },
    });
    expect(frame.jsonBytes).toBe(frame.jsonBytes);
    expect(frame.binary).toBeUndefined();
  });

  it("keeps a task frame's task id and sizes it by its JSON text, before and after the bytes are made", () => {
    const frame = serializeEntry({ ...event, taskId: 'task-1', serviceParameters: { trace_id: 't' } });
    const text = frame.json;
    expect(frame.taskId).toBe('task-1');
    expect(frame.bytes).toBe(text.length);
    expect(JSON.parse(text)).toMatchObject({ service_parameters: { trace_id: 't' }, sequence: 7 });
    void frame.jsonBytes;
    expect(frame.json).toBe(text);
    expect(serializeEntry(event).taskId).toBeUndefined();
  });

  it("makes an Output frame's JSON only when asked, then keeps it", () => {
    const data = new Uint8Array([0x68, 0x69, 0xff, 0x0a]);
    const frame = serializeEntry({
      type: 'output',
      seq: 3,
      id: 'id-3',
      ts: Date.UTC(2026, 11, 6),
      stream: 'stdout',
      data,
    });
    expect(frame.binary).toBeDefined();
    const bytes = frame.jsonBytes;
    expect(frame.jsonBytes).toBe(bytes);
    const parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as { payload: { data: string } };
    expect(Buffer.from(parsed.payload.data, 'base64')).toEqual(Buffer.from(data));
  });
});
