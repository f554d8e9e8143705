/**
 * Postgres stops (its own throwaway instance) and comes back. Edges must report not-ready, answer
 * REST calls that need the database with a prompt JSON 5xx (no hang, no crash), keep live
 * sessions streaming (the data path is NATS only), and recover on their own.
 */
import { joinSession, type TestClient } from '@pty-ws/testkit';
import { httpRequest, waitReadyz, type TimedResponse } from './support/http';
import { marker, shellBody, since, useFaultCluster } from './support/cluster';
import { OwnPostgres } from './support/postgres';

jest.setTimeout(90_000);

let pg: OwnPostgres | undefined;
const fc = useFaultCluster(
  {},
  {
    setup: async () => {
      pg = await OwnPostgres.create();
      return { databaseUrl: pg.url };
    },
    teardown: async () => {
      pg?.dispose();
    },
  },
);

async function echo(c: TestClient, tag: string): Promise<void> {
  const m = marker(tag);
  const from = c.mark();
  c.input(m.cmd);
  await c.collectOutput(m.re, 5000, from);
}

function expectCleanServerError(r: TimedResponse): void {
  expect(r.status).toBeGreaterThanOrEqual(500);
  expect(r.status).toBeLessThan(600);
  expect(r.contentType).toMatch(/application\/json/);
  expect(r.body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  expect(r.ms).toBeLessThan(10_000);
}

describe('Postgres down', () => {
  it('readyz 503, REST fails fast with JSON, live sessions stream; all recovers when Postgres is back', async () => {
    const { cluster } = fc();
    const token = cluster.adminToken;
    const [edgeA, edgeB] = cluster.edges as [(typeof cluster.edges)[0], (typeof cluster.edges)[0]];
    const sessionId = await fc().createShell(edgeA);
    const typist = await fc().attach(edgeA, sessionId);
    await joinSession(typist, { role: 'controller' });
    const watcher = await fc().attach(edgeB, sessionId);
    await joinSession(watcher, { role: 'observer' });
    await echo(typist, 'pg_up');

    const stoppedAt = Date.now();
    pg!.stop('fast');
    const notReady = await Promise.all([edgeA, edgeB].map((e) => waitReadyz(e.httpUrl, 503, 8000)));

    const create = await httpRequest(edgeA.httpUrl, 'POST', '/api/v1/sessions', { token, json: shellBody() });
    const list = await httpRequest(edgeB.httpUrl, 'GET', '/api/v1/sessions', { token });
    process.stdout.write(
      `postgres-down: readyz 503 after ${notReady.join('/')} ms; POST /sessions → ${create.status} in ${create.ms} ms ${create.text}; GET → ${list.status} in ${list.ms} ms\n`,
    );
    expectCleanServerError(create);
    expectCleanServerError(list);

    // The live session does not depend on Postgres: keystrokes and fan-out across edges go on.
    await echo(typist, 'pg_down').catch((err: Error) => {
      throw new Error(
        `live session stalled while Postgres is down: ${err.message}\n${typist.describe(0)}\n${fc().logs()}`,
      );
    });
    await watcher.collectOutput(marker('pg_down').re, 5000);
    for (const s of [...cluster.agents, ...cluster.edges]) expect(s.child.exitCode).toBeNull();

    pg!.start();
    const ready = await Promise.all([edgeA, edgeB].map((e) => waitReadyz(e.httpUrl, 200, 15_000)));
    const created = await httpRequest(edgeB.httpUrl, 'POST', '/api/v1/sessions', { token, json: shellBody() });
    expect(created.status).toBe(201);
    await echo(typist, 'pg_back');
    process.stdout.write(
      `postgres-down: ready again ${ready.join('/')} ms after start; outage ${since(stoppedAt)} ms\n`,
    );
  });
});
