import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { TaskRecord, TaskStore } from '@pty-ws/ports';
import type { TaskState } from '@pty-ws/protocol';
import { uniqueId } from './support';

export interface TaskStoreFixture {
  store: TaskStore;
  cleanup(): Promise<void>;
}

const T0 = 1_700_000_000_000;

interface TaskOptions {
  instanceId: string;
  sessionId?: string;
  createdAt?: number;
  state?: TaskState;
  contextId?: string;
}

function taskRecord(o: TaskOptions): TaskRecord {
  const createdAt = o.createdAt ?? T0;
  return {
    task: {
      id: uniqueId('task'),
      context_id: o.contextId ?? 'ctx-default',
      status: { state: o.state ?? 'SUBMITTED', timestamp: new Date(createdAt).toISOString() },
      history: [{ message_id: 'm1', role: 'ROLE_USER', parts: [{ text: 'echo hi' }] }],
    },
    sessionId: o.sessionId ?? 'session-default',
    instanceId: o.instanceId,
    serviceParameters: { origin: 'contract-test' },
    createdAt,
    updatedAt: createdAt,
  };
}

function withState(r: TaskRecord, state: TaskState, updatedAt: number): TaskRecord {
  return { ...r, task: { ...r.task, status: { state, timestamp: new Date(updatedAt).toISOString() } }, updatedAt };
}

const ids = (records: readonly TaskRecord[]): string[] => records.map((r) => r.task.id);

/** The TaskStore contract (ports/src/tasks.ts): CAS updates and newest-first keyset pages. */
export function taskStoreContract(name: string, makeStore: () => Promise<TaskStoreFixture>): void {
  describe(`TaskStore contract: ${name}`, () => {
    let fixture: TaskStoreFixture;
    let store: TaskStore;
    /** Every test works inside its own instance, so list results are its own. */
    let instanceId: string;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
      instanceId = uniqueId('instance');
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    async function insertMany(n: number, o: Partial<TaskOptions> = {}): Promise<TaskRecord[]> {
      const out: TaskRecord[] = [];
      for (let i = 0; i < n; i++) {
        const r = taskRecord({ instanceId, createdAt: T0 + i * 10, ...o });
        await store.insert(r);
        out.push(r);
      }
      return out;
    }

    /** Follows nextPageToken to the end. */
    async function allPages(filter: Parameters<TaskStore['list']>[0], pageSize: number): Promise<TaskRecord[][]> {
      const pages: TaskRecord[][] = [];
      let token: string | undefined;
      do {
        const page = await store.list(filter, pageSize, token);
        pages.push(page.tasks);
        token = page.nextPageToken;
      } while (token !== undefined && pages.length < 100);
      return pages;
    }

    describe('insert and get', () => {
      it('round-trips a record', async () => {
        const r = taskRecord({ instanceId });
        await store.insert(r);
        expect(await store.get(r.task.id)).toEqual(r);
      });

      it('returns undefined for an unknown task', async () => {
        expect(await store.get(uniqueId('task'))).toBeUndefined();
      });

      it('rejects a second insert of the same task id', async () => {
        const r = taskRecord({ instanceId });
        await store.insert(r);
        await expect(store.insert({ ...r, createdAt: T0 + 1 })).rejects.toThrow();
        expect(await store.get(r.task.id)).toEqual(r);
      });

      it('is not changed through objects passed in or handed out', async () => {
        const r = taskRecord({ instanceId });
        await store.insert(r);
        r.task.status.state = 'FAILED';
        const got = await store.get(r.task.id);
        if (!got) throw new Error('inserted task missing');
        got.task.status.state = 'CANCELED';
        expect((await store.get(r.task.id))?.task.status.state).toBe('SUBMITTED');
      });
    });

    describe('update (compare-and-set on updatedAt)', () => {
      it('applies when updatedAt matches and returns the stored record', async () => {
        const [r] = await insertMany(1);
        if (!r) throw new Error('no task');
        const updated = await store.update(withState(r, 'WORKING', T0 + 500), r.updatedAt);
        expect(updated?.task.status.state).toBe('WORKING');
        expect(updated?.updatedAt).toBe(T0 + 500);
        expect(await store.get(r.task.id)).toEqual(updated);
      });

      it('refuses a stale expectation and leaves the record alone', async () => {
        const [r] = await insertMany(1);
        if (!r) throw new Error('no task');
        const first = await store.update(withState(r, 'WORKING', T0 + 500), r.updatedAt);
        expect(first).toBeDefined();
        expect(await store.update(withState(r, 'CANCELED', T0 + 600), r.updatedAt)).toBeUndefined();
        expect((await store.get(r.task.id))?.task.status.state).toBe('WORKING');
      });

      it('returns undefined for an unknown task', async () => {
        const r = taskRecord({ instanceId });
        expect(await store.update(r, r.updatedAt)).toBeUndefined();
        expect(await store.get(r.task.id)).toBeUndefined();
      });

      it('lets exactly one of two racing writers win', async () => {
        const [r] = await insertMany(1);
        if (!r) throw new Error('no task');
        const results = await Promise.all([
          store.update(withState(r, 'COMPLETED', T0 + 700), r.updatedAt),
          store.update(withState(r, 'CANCELED', T0 + 700), r.updatedAt),
        ]);
        const winners = results.filter((x) => x !== undefined);
        expect(winners).toHaveLength(1);
        expect((await store.get(r.task.id))?.task.status.state).toBe(winners[0]?.task.status.state);
      });

      it('still stops the second writer when both write the same updatedAt (same millisecond)', async () => {
        const [r] = await insertMany(1);
        if (!r) throw new Error('no task');
        const first = await store.update(withState(r, 'WORKING', r.updatedAt), r.updatedAt);
        expect(first?.updatedAt).toBeGreaterThan(r.updatedAt);
        expect(await store.update(withState(r, 'CANCELED', r.updatedAt), r.updatedAt)).toBeUndefined();
        expect((await store.get(r.task.id))?.task.status.state).toBe('WORKING');
        // The returned updatedAt is the one to expect next time.
        expect(await store.update(withState(r, 'COMPLETED', r.updatedAt), first?.updatedAt ?? NaN)).toBeDefined();
      });
    });

    describe('list', () => {
      it('returns newest first', async () => {
        const order = [3, 0, 4, 1, 2];
        const records: TaskRecord[] = [];
        for (const k of order) {
          const r = taskRecord({ instanceId, createdAt: T0 + k * 1000 });
          await store.insert(r);
          records[k] = r;
        }
        const page = await store.list({ instanceId }, 10);
        expect(ids(page.tasks)).toEqual(ids([...records].reverse()));
        expect(page.nextPageToken).toBeUndefined();
      });

      it('returns an empty page and no token when nothing matches', async () => {
        expect(await store.list({ instanceId }, 10)).toEqual({ tasks: [] });
      });

      it.each([
        [7, 3, [3, 3, 1]],
        [6, 3, [3, 3]],
        [3, 5, [3]],
        [4, 1, [1, 1, 1, 1]],
      ])('pages %i tasks by %i as %j, each task exactly once, newest first', async (n, size, shape) => {
        const records = await insertMany(n);
        const pages = await allPages({ instanceId }, size);
        expect(pages.map((p) => p.length)).toEqual(shape);
        expect(pages.flat().map((r) => r.task.id)).toEqual(ids(records).reverse());
      });

      it('pages correctly through tasks created in the same millisecond', async () => {
        const records = await insertMany(5, { createdAt: T0 });
        const pages = await allPages({ instanceId }, 2);
        const seen = pages.flat().map((r) => r.task.id);
        expect(new Set(seen).size).toBe(5);
        expect([...seen].sort()).toEqual(ids(records).sort());
      });

      it('neither repeats nor skips when a task is created between pages', async () => {
        const records = await insertMany(6);
        const first = await store.list({ instanceId }, 3);
        await store.insert(taskRecord({ instanceId, createdAt: T0 + 10_000 }));
        const second = await store.list({ instanceId }, 3, first.nextPageToken);
        expect([...ids(first.tasks), ...ids(second.tasks)]).toEqual(ids(records).reverse());
        expect(second.nextPageToken).toBeUndefined();
      });

      it('filters by session, state, context and instance, alone and combined', async () => {
        const a = taskRecord({ instanceId, sessionId: 's-a', state: 'WORKING', contextId: 'c1', createdAt: T0 + 1 });
        const b = taskRecord({ instanceId, sessionId: 's-a', state: 'COMPLETED', contextId: 'c2', createdAt: T0 + 2 });
        const c = taskRecord({ instanceId, sessionId: 's-b', state: 'WORKING', contextId: 'c2', createdAt: T0 + 3 });
        const elsewhere = taskRecord({
          instanceId: uniqueId('instance'),
          sessionId: 's-a',
          state: 'WORKING',
          contextId: 'c1',
        });
        for (const r of [a, b, c, elsewhere]) await store.insert(r);
        const list = async (f: Parameters<TaskStore['list']>[0]): Promise<string[]> =>
          ids((await store.list({ instanceId, ...f }, 10)).tasks);
        expect(await list({})).toEqual(ids([c, b, a]));
        expect(await list({ sessionId: 's-a' })).toEqual(ids([b, a]));
        expect(await list({ state: 'WORKING' })).toEqual(ids([c, a]));
        expect(await list({ contextId: 'c2' })).toEqual(ids([c, b]));
        expect(await list({ sessionId: 's-a', state: 'WORKING', contextId: 'c1' })).toEqual(ids([a]));
        expect(await list({ sessionId: 's-c' })).toEqual([]);
        expect(ids((await store.list({ instanceId: elsewhere.instanceId }, 10)).tasks)).toEqual(ids([elsewhere]));
      });

      it('filters on the current state after an update', async () => {
        const [r] = await insertMany(1);
        if (!r) throw new Error('no task');
        await store.update(withState(r, 'COMPLETED', T0 + 900), r.updatedAt);
        expect((await store.list({ instanceId, state: 'SUBMITTED' }, 10)).tasks).toEqual([]);
        expect(ids((await store.list({ instanceId, state: 'COMPLETED' }, 10)).tasks)).toEqual([r.task.id]);
      });

      it('pages with a filter applied', async () => {
        const working = await insertMany(5, { state: 'WORKING' });
        await insertMany(5, { state: 'FAILED' });
        const pages = await allPages({ instanceId, state: 'WORKING' }, 2);
        expect(
          pages
            .flat()
            .map((r) => r.task.id)
            .sort(),
        ).toEqual(ids(working).sort());
      });

      it('rejects a page token it did not issue', async () => {
        await insertMany(2);
        await expect(store.list({ instanceId }, 1, 'not a token')).rejects.toThrow();
      });

      it('hands out copies', async () => {
        const [r] = await insertMany(1);
        const page = await store.list({ instanceId }, 10);
        const got = page.tasks[0];
        if (!r || !got) throw new Error('no task');
        got.task.status.state = 'FAILED';
        expect((await store.get(r.task.id))?.task.status.state).toBe('SUBMITTED');
      });
    });
  });
}
