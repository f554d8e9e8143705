/**
 * Single-node mode: push notifications that could not be delivered before the server stopped wait
 * in `$PTYWS_STATE_DIR/push-outbox.jsonl`; the next server on that state dir delivers them once
 * the webhook is up.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Task } from '@pty-ws/protocol';
import { TestContext, freePort, testMode, waitUntil } from '@pty-ws/testkit';
import { awaitState, newSession, restOk, textMessage } from './support';

jest.setTimeout(60_000);

const embedded = testMode() === 'embedded' ? describe : describe.skip;

embedded('push outbox across a single-node restart', () => {
  const stateDir = mkdtempSync('/tmp/ptyws-outbox-');
  let webhook: Server | undefined;
  afterAll(async () => {
    await new Promise((resolve) => (webhook ? webhook.close(resolve) : resolve(undefined)));
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('what the first server could not deliver, the second delivers', async () => {
    const port = await freePort(); // the webhook is down
    const caps = { stateDir, pushAttempts: 100, pushBackoffMs: 100, pushAllowedHosts: ['127.0.0.1'] };
    const first = await TestContext.start(caps);
    let taskId = '';
    try {
      const session = await newSession(first);
      const { task } = await restOk<{ task: Task }>(first, 'POST', '/message:send', {
        message: textMessage('echo outbox_single', session),
        configuration: {
          returnImmediately: true,
          taskPushNotificationConfig: { url: `http://127.0.0.1:${port}/hook`, token: 'tok-single' },
        },
      });
      taskId = task.id;
      await awaitState(first, taskId, ['COMPLETED']);
      const file = path.join(stateDir, 'push-outbox.jsonl');
      await waitUntil(
        () => (readFileSync(file, 'utf8').match(/"add"/g) ?? []).length >= 3,
        10_000,
        'three notifications in the outbox file',
      );
    } finally {
      await first.dispose(); // drains for 1 s: nothing listens, so they stay
    }

    const got: Array<{ body: Record<string, unknown>; token: string | undefined }> = [];
    webhook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
          token: req.headers['x-a2a-notification-token'] as string | undefined,
        });
        res.end();
      });
    });
    await new Promise<void>((resolve) => webhook!.listen(port, '127.0.0.1', resolve));

    const second = await TestContext.start(caps);
    try {
      const final = (b: Record<string, unknown>) =>
        (b['statusUpdate'] as { status: { state: string } } | undefined)?.status.state === 'TASK_STATE_COMPLETED';
      await waitUntil(() => got.some((g) => final(g.body)), 15_000, 'the final notification');
      const labels = got
        .map((g) =>
          g.body['statusUpdate']
            ? (g.body['statusUpdate'] as { status: { state: string } }).status.state.replace(/^TASK_STATE_/, '')
            : 'artifact',
        )
        .filter((s, i, all) => i === 0 || s !== all[i - 1]);
      expect(labels).toEqual(['WORKING', 'artifact', 'COMPLETED']);
      expect(got.every((g) => g.token === 'tok-single')).toBe(true);
      expect(JSON.stringify(got)).toContain(taskId);
    } finally {
      await second.dispose();
    }
  });
});
