import { BindingError } from '@pty-ws/protocol';
import type { TaskRecord } from '@pty-ws/ports';
import { MemoryTaskStore } from '../src';

const T0 = 1_700_000_000_000;
const record = (id: string, createdAt = T0): TaskRecord => ({
  task: { id, context_id: 'ctx', status: { state: 'SUBMITTED', timestamp: new Date(createdAt).toISOString() } },
  sessionId: 's1',
  instanceId: 'i1',
  createdAt,
  updatedAt: createdAt,
});

describe('MemoryTaskStore specifics', () => {
  it('keeps createdAt, sessionId and instanceId as inserted: a task never moves', async () => {
    const store = new MemoryTaskStore();
    await store.insert(record('t1'));
    const updated = await store.update(
      { ...record('t1', T0 + 99), sessionId: 's2', instanceId: 'i2', updatedAt: T0 + 100 },
      T0,
    );
    expect(updated).toMatchObject({ createdAt: T0, sessionId: 's1', instanceId: 'i1', updatedAt: T0 + 100 });
  });

  it('issues URL-safe page tokens and answers a foreign one with INVALID_REQUEST', async () => {
    const store = new MemoryTaskStore();
    for (let i = 0; i < 3; i++) await store.insert(record(`t${i}`, T0 + i));
    const { nextPageToken } = await store.list({}, 1);
    expect(nextPageToken).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const bad of ['!!!', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('[1]').toString('base64url')]) {
      await expect(store.list({}, 1, bad)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
      await expect(store.list({}, 1, bad)).rejects.toBeInstanceOf(BindingError);
    }
  });

  it('treats an empty page token as none (proto3 leaves an unset string empty)', async () => {
    const store = new MemoryTaskStore();
    await store.insert(record('t1'));
    expect((await store.list({}, 10, '')).tasks).toHaveLength(1);
  });

  it('treats a page size below 1 as 1', async () => {
    const store = new MemoryTaskStore();
    await store.insert(record('t1'));
    await store.insert(record('t2', T0 + 1));
    const page = await store.list({}, 0);
    expect(page.tasks.map((t) => t.task.id)).toEqual(['t2']);
    expect(page.nextPageToken).toBeDefined();
  });
});
