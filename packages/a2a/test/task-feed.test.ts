import { describe, expect, it } from '@jest/globals';
import { MemoryFrameLog } from '@pty-ws/adapters-memory';
import type { LogEntry } from '@pty-ws/ports';
import type { TaskState } from '@pty-ws/protocol';
import { TaskFeed } from '../src';

const SESSION = 'session-1';

function update(seq: number, taskId: string, state: TaskState, final = false): LogEntry {
  const status = { state, timestamp: new Date(1_700_000_000_000 + seq).toISOString() };
  return {
    type: 'event',
    seq,
    id: `frame-${seq}`,
    ts: 0,
    op: 'TaskStatusUpdate',
    taskId,
    payload: {
      task: { id: taskId, context_id: 'c', status },
      delta: { task_id: taskId, context_id: 'c', status, final },
    },
  };
}

function output(seq: number): LogEntry {
  return { type: 'output', seq, id: `frame-${seq}`, ts: 0, stream: 'stdout', data: new Uint8Array([65]) };
}

async function states(feed: TaskFeed, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await feed.next();
    if (r.done) break;
    out.push(r.value.delta.status.state);
  }
  return out;
}

describe('TaskFeed', () => {
  it("yields only its task's updates, in sequence order, from the moment it subscribed", async () => {
    const log = new MemoryFrameLog();
    await log.append(SESSION, update(1, 't1', 'SUBMITTED'));
    const feed = new TaskFeed(log, SESSION, 't1');
    await log.append(SESSION, output(2));
    await log.append(SESSION, update(3, 'other', 'WORKING'));
    await log.append(SESSION, update(4, 't1', 'WORKING'));
    await log.append(SESSION, update(5, 't1', 'COMPLETED', true));
    expect(await states(feed, 2)).toEqual(['WORKING', 'COMPLETED']);
    feed.close();
  });

  it('catch-up fills the window before the subscription without repeating what it delivers', async () => {
    const log = new MemoryFrameLog();
    await log.append(SESSION, update(1, 't1', 'SUBMITTED'));
    await log.append(SESSION, update(2, 't1', 'WORKING')); // before the subscription
    const feed = new TaskFeed(log, SESSION, 't1');
    await log.append(SESSION, update(3, 't1', 'COMPLETED', true)); // live
    await feed.catchUp(log, SESSION, 1); // reads 2 and 3 again
    expect(await states(feed, 2)).toEqual(['WORKING', 'COMPLETED']);
    feed.close();
    expect((await feed.next()).done).toBe(true);
  });

  it('a waiting reader is woken by the next update, and by close()', async () => {
    const log = new MemoryFrameLog();
    const feed = new TaskFeed(log, SESSION, 't1');
    const pending = feed.next();
    await log.append(SESSION, update(1, 't1', 'WORKING'));
    expect((await pending).value?.delta.status.state).toBe('WORKING');
    const waiting = feed.next();
    feed.close();
    expect((await waiting).done).toBe(true);
  });

  it('ends when the abort signal fires (the caller went away) and stops listening', async () => {
    const log = new MemoryFrameLog();
    const abort = new AbortController();
    const feed = new TaskFeed(log, SESSION, 't1', abort.signal);
    const waiting = feed.next();
    abort.abort();
    expect((await waiting).done).toBe(true);
    await log.append(SESSION, update(1, 't1', 'WORKING'));
    expect((await feed.next()).done).toBe(true);
  });
});
