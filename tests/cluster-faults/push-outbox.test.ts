/**
 * Push notifications survive the agent: the webhook is down while a task runs, so its
 * notifications wait in the Postgres outbox; the agent is SIGKILLed (its in-memory retries die
 * with it) and started again with the same id; once the webhook comes up, the restarted agent
 * delivers what its predecessor owned, in order.
 */
import { createServer, type Server } from 'node:http';
import { Client } from 'pg';
import { freePort, waitUntil } from '@pty-ws/testkit';
import { httpRequest } from './support/http';
import { useFaultCluster } from './support/cluster';

jest.setTimeout(90_000);

// Many attempts with a short backoff: nothing is given up on while the webhook is down.
const fc = useFaultCluster({ pushAttempts: 100, pushBackoffMs: 100, pushAllowedHosts: ['127.0.0.1'] });

/** A push notification body: an A2A v1.0 StreamResponse (ProtoJSON). */
interface Notification {
  statusUpdate?: { taskId: string; status: { state: string } };
  artifactUpdate?: unknown;
}

function startWebhook(port: number, got: Notification[]): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Notification);
      res.end();
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

const label = (n: Notification) =>
  n.statusUpdate ? n.statusUpdate.status.state.replace(/^TASK_STATE_/, '') : 'artifact';

describe('push notification outbox across an agent restart', () => {
  let webhook: Server | undefined;
  afterAll(async () => {
    await new Promise((resolve) => (webhook ? webhook.close(resolve) : resolve(undefined)));
  });

  it('notifications made while the webhook was down arrive after SIGKILL and restart', async () => {
    const { cluster } = fc();
    const [edge] = cluster.edges as [(typeof cluster.edges)[0]];
    const [agent] = cluster.agents as [(typeof cluster.agents)[0]];
    const port = await freePort(); // nothing listens there yet
    const sessionId = await fc().createShell(edge);

    const sent = await httpRequest(edge.httpUrl, 'POST', `/agents/${cluster.instanceId}/a2a/v1/message:send`, {
      token: cluster.adminToken,
      json: {
        message: {
          message_id: `m-${Date.now()}`,
          role: 'ROLE_USER',
          parts: [{ text: 'echo outbox_survivor' }],
          metadata: { session_id: sessionId },
        },
        configuration: {
          returnImmediately: true,
          taskPushNotificationConfig: { url: `http://127.0.0.1:${port}/hook`, token: 'tok-outbox' },
        },
      },
    });
    expect(sent.status).toBe(200);
    const taskId = (sent.body as { task: { id: string } }).task.id;

    // The task finishes; its three notifications (WORKING, artifact, COMPLETED) wait in the outbox.
    const db = new Client({ connectionString: cluster.config.databaseUrl });
    await db.connect();
    try {
      const pending = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              `SELECT count(*) AS n FROM "${cluster.config.dbSchema}".push_outbox WHERE task_id = $1`,
              [taskId],
            )
          ).rows[0]!.n,
        );
      let rows = 0;
      await waitUntil(async () => (rows = await pending()) >= 3, 15_000, 'three notifications in the outbox').catch(
        (err: Error) => {
          throw new Error(`${err.message} (have ${rows})\n${fc().logs()}`);
        },
      );

      await agent.kill('SIGKILL');
      await agent.restart();
      const got: Notification[] = [];
      webhook = await startWebhook(port, got);

      await waitUntil(
        () => got.some((n) => n.statusUpdate?.status.state === 'TASK_STATE_COMPLETED'),
        20_000,
        'the final notification at the webhook',
      ).catch((err: Error) => {
        throw new Error(`${err.message}: got ${JSON.stringify(got.map(label))}\n${fc().logs()}`);
      });
      // In order; one notification may arrive twice (at least once), never out of order.
      const states = got.map(label).filter((s, i, all) => i === 0 || s !== all[i - 1]);
      expect(states).toEqual(['WORKING', 'artifact', 'COMPLETED']);
      expect(got.every((n) => !n.statusUpdate || n.statusUpdate.taskId === taskId)).toBe(true);
      expect(JSON.stringify(got)).toContain('outbox_survivor');
      // Delivered notifications leave the outbox.
      await waitUntil(async () => (await pending()) === 0, 10_000, 'the outbox to empty');
    } finally {
      await db.end();
    }
  });
});
