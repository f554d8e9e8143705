import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pushOutboxContract } from '@pty-ws/testkit/contracts';
import { FilePushOutbox, MemoryPushOutbox } from '../src';

pushOutboxContract('memory', async () => ({ outbox: new MemoryPushOutbox(), cleanup: async () => {} }));

pushOutboxContract('JSON lines file', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ptyws-outbox-'));
  const file = path.join(dir, 'state', 'push-outbox.jsonl');
  const opened: FilePushOutbox[] = [new FilePushOutbox(file)];
  return {
    outbox: opened[0]!,
    async reopen() {
      // The first instance stops writing, as a killed process would.
      await opened[opened.length - 1]!.close();
      const next = new FilePushOutbox(file);
      opened.push(next);
      return next;
    },
    async cleanup() {
      for (const o of opened) await o.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('FilePushOutbox on disk', () => {
  it('is private to its owner (0600) and compacted on open', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ptyws-outbox-'));
    try {
      const file = path.join(dir, 'push-outbox.jsonl');
      const first = new FilePushOutbox(file);
      const base = { owner: 'a', taskId: 't', configId: 'c', url: 'http://x.example/', createdAt: 1 };
      for (let i = 0; i < 20; i++) await first.remove(await first.add({ ...base, body: `${i}` }));
      const kept = await first.add({ ...base, body: '"kept"' });
      await first.close();
      const grown = statSync(file).size;
      const second = new FilePushOutbox(file);
      expect((await second.pending('a')).map((e) => e.id)).toEqual([kept]);
      expect(statSync(file).size).toBeLessThan(grown / 10);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
