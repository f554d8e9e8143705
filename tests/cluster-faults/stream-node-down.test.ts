/**
 * The NATS server holding the frame log's stream dies while every process stays connected to
 * another server of the cluster (the services use an entry server without JetStream; three
 * JetStream servers hold the streams). The connection status says nothing is wrong, so only a
 * deadline on each JetStream call and a probe of the stream tell: requests that need the log must
 * answer 503 with Retry-After promptly, /readyz must turn 503, logs stay JSON, and all recovers
 * when the server comes back with its store.
 */
import { joinSession, type EdgeHandle } from '@pty-ws/testkit';
import { defaultFrameStreamName } from '@pty-ws/adapters-nats';
import { httpRequest, waitReadyz } from './support/http';
import { since, useFaultCluster } from './support/cluster';
import { MixedNatsCluster } from './support/nats-mixed-cluster';
import { OwnNatsServer } from './support/nats-server';
import {
  describeAnswers,
  echo,
  expectJsonLogs,
  expectUnavailable,
  outage,
  requestsThrough,
  runAll,
} from './support/outage-requests';

jest.setTimeout(120_000);

let nats: MixedNatsCluster | undefined;
const fc = useFaultCluster(
  {},
  {
    setup: async () => {
      nats = await MixedNatsCluster.start();
      return { natsUrl: nats.url };
    },
    teardown: async () => {
      await nats?.dispose();
    },
  },
);

describe("the NATS server holding the log's stream dies, the connections stay up", () => {
  it('requests that need the log answer 503 + Retry-After, readyz 503, logs JSON; all recovers', async () => {
    const f = fc();
    const [edgeA, edgeB] = f.cluster.edges as [EdgeHandle, EdgeHandle];
    const sessionId = await f.createShell(edgeA);
    const typist = await f.attach(edgeA, sessionId);
    await joinSession(typist, { role: 'controller' });
    await echo(typist, 'stream_up');

    let holder: OwnNatsServer | undefined;
    const down = await outage(f, async () => {
      holder = await nats!.leaderOf(defaultFrameStreamName(f.cluster.natsPrefix));
      await holder.stop('SIGKILL');
    });
    // A2A's task list is Postgres only, which is up: not among the requests that need the log.
    const calls = requestsThrough(f, edgeB, sessionId).filter((c) => c.name !== 'A2A GET /tasks');
    const answers = await runAll(calls);
    process.stdout.write(
      `stream-node-down: readyz 503 after ${down.notReady.join('/')} ms (edge A/edge B/agent)\n` +
        `${describeAnswers('stream-node-down', answers)}\n`,
    );
    for (const a of answers) expectUnavailable(a);
    for (const s of [...f.cluster.agents, ...f.cluster.edges]) expect(s.child.exitCode).toBeNull();

    await holder!.start();
    const ready = await Promise.all(down.readyz.map((url) => waitReadyz(url, 200, 30_000)));
    const list = await httpRequest(edgeA.httpUrl, 'GET', '/api/v1/sessions', { token: f.cluster.adminToken });
    expect(list.status).toBe(200);
    process.stdout.write(
      `stream-node-down: ready again ${ready.join('/')} ms after the restart; outage ${since(down.stoppedAt)} ms\n`,
    );
    expectJsonLogs(down.recorder, 'stream-node-down');
  });
});
