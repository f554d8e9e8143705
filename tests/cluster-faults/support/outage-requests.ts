/**
 * The requests a dependency outage is checked with (REST, an attach upgrade, A2A over JSON-RPC and
 * HTTP+JSON), what each must answer while a store or the log is away, and the outage's bookkeeping.
 */
import { SUBPROTOCOL_JSON } from '@pty-ws/protocol';
import type { EdgeHandle, TestClient } from '@pty-ws/testkit';
import { httpRequest, waitReadyz, type TimedResponse } from './http';
import { LineRecorder } from './json-lines';
import { marker, shellBody, type FaultCluster } from './cluster';

/**
 * Far above PTYWS_DEPENDENCY_TIMEOUT_MS (800 ms) and far below the 5 s a JetStream request or a
 * Postgres connect waits by itself: an answer past it is a hang, not a deadline.
 */
export const ANSWER_BOUND_MS = 3000;

/** Types a command whose output proves it ran, and waits for that output. */
export async function echo(c: TestClient, tag: string): Promise<void> {
  const m = marker(tag);
  const from = c.mark();
  c.input(m.cmd);
  await c.collectOutput(m.re, 5000, from);
}

/** The agent's /readyz server (PTYWS_AGENT_METRICS_PORT 0: the port it printed at start). */
export function agentHealthUrl(f: FaultCluster): string {
  const m = /metrics on (http:\/\/\S+)\/metrics/.exec(f.cluster.agents[0]!.output());
  if (!m) throw new Error(`the agent did not print its metrics URL:\n${f.logs()}`);
  return m[1]!;
}

export type Shape = 'rest' | 'jsonrpc' | 'a2a-rest' | 'upgrade';
export interface Call {
  name: string;
  shape: Shape;
  run: () => Promise<TimedResponse>;
}

/** Every kind of request that reads or writes the stores or the log, through `edge`. */
export function requestsThrough(f: FaultCluster, edge: EdgeHandle, sessionId: string): Call[] {
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
export async function runAll(calls: readonly Call[]): Promise<Array<{ call: Call; r: TimedResponse }>> {
  const out: Array<{ call: Call; r: TimedResponse }> = [];
  for (const call of calls) out.push({ call, r: await call.run() });
  return out;
}

export function describeAnswers(label: string, answers: ReadonlyArray<{ call: Call; r: TimedResponse }>): string {
  return answers
    .map(({ call, r }) => {
      const retry = r.headers['retry-after'];
      return `${label}: ${call.name} → ${r.status} in ${r.ms} ms${retry ? ` (Retry-After ${String(retry)})` : ''}`;
    })
    .join('\n');
}

/** 503 with Retry-After, quickly, in the error body each binding defines. */
export function expectUnavailable({ call, r }: { call: Call; r: TimedResponse }): void {
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

export function expectJsonLogs(recorder: LineRecorder, label: string): void {
  const { count, notJson } = recorder.stop();
  process.stdout.write(`${label}: ${count} log lines during and after the outage, ${notJson.length} not JSON\n`);
  expect(notJson).toEqual([]);
  // Every process logs the outage and the recovery (once each): the check above saw real lines.
  expect(count).toBeGreaterThan(0);
}

export interface Outage {
  stoppedAt: number;
  recorder: LineRecorder;
  /** ms until /readyz answered 503: edge A, edge B, the agent. */
  notReady: number[];
  /** Every process's /readyz: both edges', then the agent's. */
  readyz: string[];
}

/** Records every log line from now on, runs `stop`, and waits for every process's /readyz to say 503. */
export async function outage(f: FaultCluster, stop: () => Promise<void>): Promise<Outage> {
  const readyz = [...f.cluster.edges.map((e) => e.httpUrl), agentHealthUrl(f)];
  const recorder = new LineRecorder([...f.cluster.agents, ...f.cluster.edges]);
  const stoppedAt = Date.now();
  await stop();
  const notReady = await Promise.all(readyz.map((url) => waitReadyz(url, 503, 8000)));
  return { stoppedAt, recorder, notReady, readyz };
}
