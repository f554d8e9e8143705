/**
 * Postgres, then NATS, stops (each the test's own server) under a running cluster. Requests that
 * need the stopped one — REST list/create/get, an attach upgrade, A2A over JSON-RPC and HTTP+JSON
 * — must be answered 503 with Retry-After promptly (a deadline in the code, not a 5 s client
 * timeout), /readyz must say 503 on every process, live sessions keep streaming through the
 * Postgres outage, every log line stays one JSON object, and all recovers when the server is back.
 */
import { SUBPROTOCOL_JSON } from '@pty-ws/protocol';
import { joinSession, type EdgeHandle, type TestClient } from '@pty-ws/testkit';
import { httpRequest, waitReadyz, type TimedResponse } from './support/http';
import { LineRecorder } from './support/json-lines';
import { marker, shellBody, since, useFaultCluster, type FaultCluster } from './support/cluster';
import { OwnNatsServer } from './support/nats-server';
import { OwnPostgres } from './support/postgres';

jest.setTimeout(120_000);

/**
 * Far above PTYWS_DEPENDENCY_TIMEOUT_MS (800 ms) and far below the 5 s a JetStream request or a
 * Postgres connect waits by itself: an answer past it is a hang, not a deadline.
 */
const ANSWER_BOUND_MS = 3000;

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

async function echo(c: TestClient, tag: string): Promise<void> {
  const m = marker(tag);
  const from = c.mark();
  c.input(m.cmd);
  await c.collectOutput(m.re, 5000, from);
}

/** The agent's /readyz server (PTYWS_AGENT_METRICS_PORT 0: the port it printed at start). */
function agentHealthUrl(f: FaultCluster): string {
  const m = /metrics on (http:\/\/\S+)\/metrics/.exec(f.cluster.agents[0]!.output());
  if (!m) throw new Error(`the agent did not print its metrics URL:\n${f.logs()}`);
  return m[1]!;
}

type Shape = 'rest' | 'jsonrpc' | 'a2a-rest' | 'upgrade';
interface Call {
  name: string;
  shape: Shape;
  run: () => Promise<TimedResponse>;
}

/** Every kind of request that reads or writes the stores or the log, through `edge`. */
function requestsThrough(f: FaultCluster, edge: EdgeHandle, sessionId: string): Call[] {
  const token = f.cluster.adminToken;
  const instance = encodeURIComponent(f.cluster.instanceId);
  return [
    {
      name: 'GET /api/v1/sessions',
      shape: 'rest',
      run: () => httpRequest(edge.httpUrl, 'GET', '/api/v1/sessions', { token }),
    },
    {
      name: 'POST /api/v1/sessions',
      shape: 'rest',
      run: () => httpRequest(edge.httpUrl, 'POST', '/api/v1/sessions', { token, json: shellBody() }),
    },
    {
      name: 'GET /api/v1/sessions/:id',
      shape: 'rest',
      run: () => httpRequest(edge.httpUrl, 'GET', `/api/v1/sessions/${sessionId}`, { token }),
    },
    {
      name: 'attach upgrade',
      shape: 'upgrade',
      run: () =>
        httpRequest(edge.httpUrl, 'GET', `/agents/${instance}/sessions/${sessionId}/attach`, {
          token,
          headers: {
            Connection: 'Upgrade',
            Upgrade: 'websocket',
            'Sec-WebSocket-Version': '13',
            'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
            'Sec-WebSocket-Protocol': SUBPROTOCOL_JSON,
          },
        }),
    },
    {
      name: 'JSON-RPC SendMessage',
      shape: 'jsonrpc',
      run: () =>
        httpRequest(edge.httpUrl, 'POST', `/agents/${instance}/a2a/jsonrpc`, {
          token,
          json: {
            jsonrpc: '2.0',
            id: 7,
            method: 'SendMessage',
            params: {
              message: { messageId: 'm-outage', role: 'ROLE_USER', parts: [{ text: 'true' }], metadata: { sessionId } },
            },
          },
        }),
    },
    {
      name: 'A2A GET /tasks',
      shape: 'a2a-rest',
      run: () => httpRequest(edge.httpUrl, 'GET', `/agents/${instance}/a2a/v1/tasks`, { token }),
    },
  ];
}

/** Runs the calls one after another; returns one report line each. */
async function runAll(calls: readonly Call[]): Promise<Array<{ call: Call; r: TimedResponse }>> {
  const out: Array<{ call: Call; r: TimedResponse }> = [];
  for (const call of calls) out.push({ call, r: await call.run() });
  return out;
}

function describeAnswers(label: string, answers: ReadonlyArray<{ call: Call; r: TimedResponse }>): string {
  return answers
    .map(({ call, r }) => {
      const retry = r.headers['retry-after'];
      return `${label}: ${call.name} → ${r.status} in ${r.ms} ms${retry ? ` (Retry-After ${String(retry)})` : ''}`;
    })
    .join('\n');
}

/** 503 with Retry-After, quickly, in the error body each binding defines. */
function expectUnavailable({ call, r }: { call: Call; r: TimedResponse }): void {
  const where = `${call.name} → ${r.status} ${r.text.slice(0, 300)}`;
  expect({ where, status: r.status }).toEqual({ where, status: 503 });
  expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(r.ms).toBeLessThan(ANSWER_BOUND_MS);
  expect(r.contentType).toMatch(/application\/json/);
  switch (call.shape) {
    case 'rest':
    case 'upgrade':
      expect(r.body).toMatchObject({ error: { code: 'INTERNAL', retryable: true, message: expect.any(String) } });
      break;
    case 'jsonrpc':
      expect(r.body).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32603, data: [expect.objectContaining({ reason: 'UNAVAILABLE' })] },
      });
      break;
    case 'a2a-rest':
      expect(r.body).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
      break;
  }
}

function expectJsonLogs(recorder: LineRecorder, label: string): void {
  const { count, notJson } = recorder.stop();
  process.stdout.write(`${label}: ${count} log lines during and after the outage, ${notJson.length} not JSON\n`);
  expect(notJson).toEqual([]);
  // Every process logs the outage and the recovery (once each): the check above saw real lines.
  expect(count).toBeGreaterThan(0);
}

interface Outage {
  stoppedAt: number;
  recorder: LineRecorder;
  /** ms until /readyz answered 503: edge A, edge B, the agent. */
  notReady: number[];
  /** Every process's /readyz: both edges', then the agent's. */
  readyz: string[];
}

/** Records every log line from now on, runs `stop`, and waits for every process's /readyz to say 503. */
async function outage(f: FaultCluster, stop: () => Promise<void>): Promise<Outage> {
  const readyz = [...f.cluster.edges.map((e) => e.httpUrl), agentHealthUrl(f)];
  const recorder = new LineRecorder([...f.cluster.agents, ...f.cluster.edges]);
  const stoppedAt = Date.now();
  await stop();
  const notReady = await Promise.all(readyz.map((url) => waitReadyz(url, 503, 8000)));
  return { stoppedAt, recorder, notReady, readyz };
}

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
