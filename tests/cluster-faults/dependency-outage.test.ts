/**
 * Postgres, then NATS, stops (each the test's own server) under a running cluster. Requests that
 * need the stopped one — REST list/create/get, an attach upgrade, A2A over JSON-RPC and HTTP+JSON
 * — must be answered 503 with Retry-After promptly (a deadline in the code, not a 5 s client
 * timeout), /readyz must say 503 on every process, live sessions keep streaming through the
 * Postgres outage, every log line stays one JSON object, and all recovers when the server is back.
 */
import { joinSession, type EdgeHandle, type TestClient } from '@pty-ws/testkit';
import { httpRequest, waitReadyz } from './support/http';
import { LineRecorder } from './support/json-lines';
import { marker, shellBody, since, useFaultCluster } from './support/cluster';
import {
  agentHealthUrl,
  describeAnswers,
  echo,
  expectJsonLogs,
  expectUnavailable,
  outage,
  requestsThrough,
  runAll,
} from './support/outage-requests';
import { OwnNatsServer } from './support/nats-server';
import { OwnPostgres } from './support/postgres';

jest.setTimeout(120_000);

let pg: OwnPostgres | undefined;
let nats: OwnNatsServer | undefined;
const fc = useFaultCluster(
  {},
  {
    setup: async () => {
      pg = await OwnPostgres.create();
      nats = await OwnNatsServer.start();
      return { databaseUrl: pg.url, natsUrl: nats.url };
    },
    teardown: async () => {
      pg?.dispose();
      await nats?.dispose();
    },
  },
);

describe('dependency outages', () => {
  let sessionId = '';
  let typist: TestClient;
  let watcher: TestClient;

  beforeAll(async () => {
    const f = fc();
    const [edgeA, edgeB] = f.cluster.edges as [EdgeHandle, EdgeHandle];
    sessionId = await f.createShell(edgeA);
    typist = await f.attach(edgeA, sessionId);
    await joinSession(typist, { role: 'controller' });
    watcher = await f.attach(edgeB, sessionId);
    await joinSession(watcher, { role: 'observer' });
    await echo(typist, 'deps_up');
  });

  it('Postgres hung: every request that needs it answers 503 + Retry-After at the deadline, readyz 503, sessions stream', async () => {
    const f = fc();
    const edgeA = f.cluster.edges[0]!;
    const readyz = [...f.cluster.edges.map((e) => e.httpUrl), agentHealthUrl(f)];
    const recorder = new LineRecorder([...f.cluster.agents, ...f.cluster.edges]);
    const frozenAt = Date.now();
    pg!.freeze();
    try {
      // Right away, before any probe noticed: only the deadline stands between these and a hang.
      const answers = await runAll(requestsThrough(f, edgeA, sessionId));
      const notReady = await Promise.all(readyz.map((url) => waitReadyz(url, 503, 8000)));
      process.stdout.write(
        `${describeAnswers('postgres-hung', answers)}\n` +
          `postgres-hung: readyz 503 after ${notReady.join('/')} ms more (edge A/edge B/agent)\n`,
      );
      for (const a of answers) expectUnavailable(a);
      await echo(typist, 'pg_hung');
      await watcher.collectOutput(marker('pg_hung').re, 5000);
    } finally {
      pg!.thaw();
    }
    const ready = await Promise.all(readyz.map((url) => waitReadyz(url, 200, 15_000)));
    const list = await httpRequest(edgeA.httpUrl, 'GET', '/api/v1/sessions', { token: f.cluster.adminToken });
    expect(list.status).toBe(200);
    process.stdout.write(
      `postgres-hung: ready again ${ready.join('/')} ms after the thaw; hung ${since(frozenAt)} ms\n`,
    );
    expectJsonLogs(recorder, 'postgres-hung');
  });

  it('Postgres down: 503 + Retry-After on every request that needs it, readyz 503, sessions stream, logs JSON', async () => {
    const f = fc();
    const [edgeA, edgeB] = f.cluster.edges as [EdgeHandle, EdgeHandle];
    const down = await outage(f, () => Promise.resolve(pg!.stop('fast')));

    const answers = await runAll(requestsThrough(f, edgeA, sessionId));
    process.stdout.write(
      `postgres-outage: readyz 503 after ${down.notReady.join('/')} ms (edge A/edge B/agent)\n` +
        `${describeAnswers('postgres-outage', answers)}\n`,
    );
    for (const a of answers) expectUnavailable(a);

    // The live session needs no Postgres: keystrokes and fan-out across edges go on.
    await echo(typist, 'pg_away');
    await watcher.collectOutput(marker('pg_away').re, 5000);
    for (const s of [...f.cluster.agents, ...f.cluster.edges]) expect(s.child.exitCode).toBeNull();

    pg!.start();
    const ready = await Promise.all(down.readyz.map((url) => waitReadyz(url, 200, 15_000)));
    const created = await httpRequest(edgeB.httpUrl, 'POST', '/api/v1/sessions', {
      token: f.cluster.adminToken,
      json: shellBody(),
    });
    expect(created.status).toBe(201);
    await echo(typist, 'pg_back');
    process.stdout.write(
      `postgres-outage: ready again ${ready.join('/')} ms after start; outage ${since(down.stoppedAt)} ms\n`,
    );
    expectJsonLogs(down.recorder, 'postgres-outage');
  });

  it('NATS down: 503 + Retry-After on every request that needs it, readyz 503, logs JSON; all recovers', async () => {
    const f = fc();
    const edgeB = f.cluster.edges[1]!;
    const down = await outage(f, () => nats!.stop('SIGKILL'));

    // A2A's task list is Postgres only, which is up: not among the requests that need NATS.
    const calls = requestsThrough(f, edgeB, sessionId).filter((c) => c.name !== 'A2A GET /tasks');
    const answers = await runAll(calls);
    process.stdout.write(
      `nats-outage: readyz 503 after ${down.notReady.join('/')} ms (edge A/edge B/agent)\n` +
        `${describeAnswers('nats-outage', answers)}\n`,
    );
    for (const a of answers) expectUnavailable(a);
    for (const s of [...f.cluster.agents, ...f.cluster.edges]) expect(s.child.exitCode).toBeNull();

    await nats!.start();
    const ready = await Promise.all(down.readyz.map((url) => waitReadyz(url, 200, 20_000)));
    const list = await httpRequest(edgeB.httpUrl, 'GET', '/api/v1/sessions', { token: f.cluster.adminToken });
    expect(list.status).toBe(200);
    await echo(typist, 'nats_back');
    process.stdout.write(
      `nats-outage: ready again ${ready.join('/')} ms after start; outage ${since(down.stoppedAt)} ms\n`,
    );
    expectJsonLogs(down.recorder, 'nats-outage');
  });
});
