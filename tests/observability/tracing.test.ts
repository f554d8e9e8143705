/**
 * OpenTelemetry traces across edge → (NATS →) agent (→ Postgres), in both modes, exported over
 * OTLP/HTTP JSON to a receiver in this test: the trace_id a client puts in service_parameters is
 * the trace of the spans, reaches every task event, and every log line about that task.
 */
import { newId, type Message, type TaskStatusUpdatePayload } from '@pty-ws/protocol';
import { EDGE_SERVICE, AGENT_SERVICE, startTracing, tracingRequested, type Tracing } from '@pty-ws/telemetry';
import {
  TestClient,
  is,
  joinSession,
  startCluster,
  startStandaloneProcess,
  startTestServer,
  taskUpdateOf,
  type ClusterHandle,
  type Received,
  type TestServer,
} from '@pty-ws/testkit';
import { OtlpReceiver, jsonPostExporter, otlpEnv, type ReceivedSpan } from './otlp-receiver';

const SERVER = 2; // SpanKind.SERVER + 1 in OTLP's enum (UNSPECIFIED = 0)
const CLIENT = 3;

function traceId(): string {
  return newId().replace(/-/g, '').padEnd(32, '0').slice(0, 32);
}

function userMessage(text: string): Message {
  return { message_id: newId(), role: 'ROLE_USER', parts: [{ text }] };
}

async function createSession(httpUrl: string, token: string): Promise<string> {
  const res = await fetch(`${httpUrl}/api/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ argv: ['/bin/sh'] }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { session_id: string }).session_id;
}

/** Runs one streaming task on a connection whose first frame carries `trace_id`; returns its id and events. */
async function tracedTask(
  url: string,
  token: string,
  trace: string,
): Promise<{ taskId: string; events: Received[]; client: TestClient }> {
  const client = await TestClient.connect(url, { token, serviceParameters: { trace_id: trace } });
  await client.hello();
  const accepted = await client.request('SendStreamingMessage', { message: userMessage('echo traced') });
  const taskId = (accepted.payload as { task_id: string }).task_id;
  await client.waitFor((r) => is.taskUpdate(taskId)(r) && taskUpdateOf(r)?.delta.final === true, 10_000);
  return { taskId, events: client.frames.filter(is.taskUpdate(taskId)), client };
}

function byName(spans: ReceivedSpan[], service: string, name: string): ReceivedSpan {
  const s = spans.find((x) => x.service === service && x.name === name);
  if (!s) throw new Error(`no ${service} span '${name}' in:\n${spans.map((x) => `${x.service} ${x.name}`).join('\n')}`);
  return s;
}

function expectEventsCarry(events: Received[], trace: string): void {
  expect(events.length).toBeGreaterThanOrEqual(2); // WORKING, COMPLETED
  for (const r of events) {
    const frame = r.type === 'json' ? r.frame : undefined;
    expect(frame?.service_parameters?.['trace_id']).toBe(trace);
    expect((taskUpdateOf(r) as TaskStatusUpdatePayload).task).toBeDefined();
  }
}

describe('tracing switch', () => {
  it('is off by default and on when an exporter or OTLP endpoint is configured', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' })).toBe(false);
    expect(tracingRequested({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBe(false);
  });

  it('a disabled tracing handle hands out working no-op tracers', async () => {
    const t = startTracing({ serviceName: 'x', env: {} });
    expect(t.enabled).toBe(false);
    const span = t.tracer('x').startSpan('noop');
    expect(span.isRecording()).toBe(false);
    span.end();
    await t.shutdown();
  });
});

describe('single-node mode (edge and agent in one process, two services)', () => {
  let receiver: OtlpReceiver;
  let tracing: Tracing;
  let server: TestServer;
  const saved = { ...process.env };
  const lines: Array<Record<string, unknown>> = [];
  const at =
    (level: string) =>
    (obj: object, msg: string): void => {
      lines.push({ level, msg, ...obj });
    };

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    // Tracing is switched on by the OTEL_* variables, as in production; the export goes through
    // jsonPostExporter (same OTLP JSON) because jest's sandbox cannot run the SDK's HTTP transport.
    Object.assign(process.env, otlpEnv(receiver));
    tracing = startTracing({ serviceName: EDGE_SERVICE, exporter: jsonPostExporter(receiver) });
    server = await startTestServer(
      {},
      { tracing, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } },
    );
  });

  afterAll(async () => {
    await server?.stop();
    await tracing?.shutdown();
    await receiver?.close();
    for (const k of Object.keys(otlpEnv(receiver))) if (!(k in saved)) delete process.env[k];
  });

  it('spans of the edge and of the agent share the client trace id, with parent links', async () => {
    expect(tracing.enabled).toBe(true);
    const trace = traceId();
    const sessionId = await createSession(server.httpUrl, server.adminToken);
    const { taskId, events, client } = await tracedTask(server.attachUrl(sessionId), server.adminToken, trace);
    expectEventsCarry(events, trace);
    await client.close();

    await receiver.waitFor((s) => s.some((x) => x.traceId === trace && x.name === 'task.execute'));
    const spans = receiver.inTrace(trace);
    const edge = byName(spans, EDGE_SERVICE, 'SendStreamingMessage');
    expect(edge.kind).toBe(SERVER);
    expect(edge.parentSpanId).toBe(''); // the root of the client's trace
    for (const name of ['agent.createTask', 'agent.runTask']) {
      const agent = byName(spans, AGENT_SERVICE, name);
      expect(agent.parentSpanId).toBe(edge.spanId);
    }
    // The command's run outlives the request: its own span, under the agent's runTask.
    expect(byName(spans, AGENT_SERVICE, 'task.execute').parentSpanId).toBe(
      byName(spans, AGENT_SERVICE, 'agent.runTask').spanId,
    );
    // The keystroke hot path makes no spans.
    expect(receiver.spans.some((s) => s.name === 'pty.session_input')).toBe(false);

    // Log lines about the task carry the trace id: the edge's and the agent's.
    const aboutTask = lines.filter((l) => l['task_id'] === taskId);
    expect(aboutTask.map((l) => l['msg'])).toEqual(
      expect.arrayContaining(['task accepted (SendStreamingMessage)', 'task status']),
    );
    for (const l of aboutTask) expect(l['trace_id']).toBe(trace);
    // And so do the lines about the connection once its first frame named the trace.
    const detach = lines.find((l) => l['msg'] === 'detach' && l['session_id'] === sessionId);
    expect(detach?.['trace_id']).toBe(trace);
  });

  it('the upgrade continues a traceparent header; join, resize and input follow the first frame’s trace id', async () => {
    const upstream = traceId();
    const parentSpan = '00f067aa0ba902b7';
    const trace = traceId();
    const sessionId = await createSession(server.httpUrl, server.adminToken);
    const c = await TestClient.connect(server.attachUrl(sessionId), {
      token: server.adminToken,
      headers: { traceparent: `00-${upstream}-${parentSpan}-01` },
      serviceParameters: { trace_id: trace },
    });
    await c.hello();
    await joinSession(c, { role: 'controller' });
    c.input('echo hi\n');
    c.send('pty.session_resize', { cols: 100, rows: 30 }); // answered by the logged Resize frame
    await c.waitFor((r) => r.type === 'json' && (r.frame.payload as { kind?: string }).kind === 'Resize');
    await c.close();
    await receiver.waitFor((s) => s.some((x) => x.traceId === trace && x.name === 'agent.resize'));
    const upgrade = byName(receiver.inTrace(upstream), EDGE_SERVICE, 'ws.upgrade');
    expect(upgrade.parentSpanId).toBe(parentSpan);
    const spans = receiver.inTrace(trace);
    const join = byName(spans, EDGE_SERVICE, 'pty.join_session');
    expect(byName(spans, AGENT_SERVICE, 'agent.join').parentSpanId).toBe(join.spanId);
    const resize = byName(spans, EDGE_SERVICE, 'pty.session_resize');
    expect(byName(spans, AGENT_SERVICE, 'agent.resize').parentSpanId).toBe(resize.spanId);
    // Keystrokes are the hot path: no span for them on either side.
    expect(receiver.spans.some((x) => x.name === 'pty.session_input' || x.name === 'agent.input')).toBe(false);
    const accepted = lines.find((l) => l['msg'] === 'pty_resize accepted' && l['session_id'] === sessionId);
    expect(accepted?.['trace_id']).toBe(trace);
  });

  it('a trace_id that is not a W3C id still reaches events and logs; the spans get a trace of their own', async () => {
    const trace = `trace-${Date.now()}`;
    const sessionId = await createSession(server.httpUrl, server.adminToken);
    const { taskId, events, client } = await tracedTask(server.attachUrl(sessionId), server.adminToken, trace);
    expectEventsCarry(events, trace);
    await client.close();
    for (const l of lines.filter((x) => x['task_id'] === taskId)) expect(l['trace_id']).toBe(trace);
  });
});

describe('single-node mode as `npm start` runs it (the real OTLP/HTTP JSON exporter)', () => {
  it('exports spans of both halves, chosen and addressed by the OTEL_* variables alone', async () => {
    const receiver = await OtlpReceiver.start();
    // The launcher gives it a free port (gRPC off with it) and an admin token of its own.
    const server = await startStandaloneProcess({ PTYWS_LOG_LEVEL: 'warn', ...otlpEnv(receiver) });
    const { child, httpUrl, token } = server;
    try {
      const trace = traceId();
      const sessionId = await createSession(httpUrl, token);
      const url = `${server.wsUrl}/agents/${server.instanceId}/sessions/${sessionId}/attach`;
      const { client } = await tracedTask(url, token, trace);
      await client.close();
      // SIGTERM: the service stops, then flushes its spans before it exits.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await receiver.waitFor((s) => s.some((x) => x.traceId === trace && x.name === 'task.execute'), 5000);
      expect(receiver.rejected).toEqual([]); // every export was OTLP JSON on /v1/traces
      const spans = receiver.inTrace(trace);
      const edge = byName(spans, EDGE_SERVICE, 'SendStreamingMessage');
      expect(byName(spans, AGENT_SERVICE, 'agent.createTask').parentSpanId).toBe(edge.spanId);
    } finally {
      server.kill();
      await receiver.close();
    }
  }, 40_000);
});

describe('cluster mode (edge and agent processes over NATS and Postgres)', () => {
  let receiver: OtlpReceiver;
  let cluster: ClusterHandle | undefined;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    cluster = await startCluster({ logLevel: 'info' }, { env: otlpEnv(receiver) });
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
    await receiver?.close();
  }, 30_000);

  it('the trace continues edge → NATS headers → agent → Postgres, and into both processes’ logs', async () => {
    const c = cluster!;
    const trace = traceId();
    const sessionId = await createSession(c.httpUrl, c.adminToken);
    const url = `${c.edgeWsUrls[0]}/agents/${c.instanceId}/sessions/${sessionId}/attach`;
    const { taskId, events, client } = await tracedTask(url, c.adminToken, trace);
    expectEventsCarry(events, trace);
    await client.close();

    await receiver.waitFor((s) =>
      s.some((x) => x.traceId === trace && x.service === AGENT_SERVICE && x.name === 'agent.runTask'),
    );
    // The final transition's spans trail the request: wait for the command's span to end.
    await receiver.waitFor((s) => s.some((x) => x.traceId === trace && x.name === 'task.execute'));
    // The edge's span ends with the task's stream, and each process exports in its own batches.
    await receiver.waitFor((s) =>
      s.some((x) => x.traceId === trace && x.service === EDGE_SERVICE && x.name === 'SendStreamingMessage'),
    );
    const spans = receiver.inTrace(trace);
    const ids = new Set(spans.map((s) => s.spanId));
    const edge = byName(spans, EDGE_SERVICE, 'SendStreamingMessage');
    expect(edge.parentSpanId).toBe('');
    const send = spans.find(
      (s) => s.service === EDGE_SERVICE && s.name === 'ptyws.control createTask' && s.kind === CLIENT,
    );
    expect(send?.parentSpanId).toBe(edge.spanId);
    const handle = spans.find(
      (s) => s.service === AGENT_SERVICE && s.name === 'ptyws.control createTask' && s.kind === SERVER,
    );
    expect(handle?.parentSpanId).toBe(send?.spanId); // extracted from the NATS message headers
    expect(byName(spans, AGENT_SERVICE, 'agent.createTask').parentSpanId).toBe(handle?.spanId);
    const insert = byName(spans, AGENT_SERVICE, 'INSERT tasks');
    expect(insert.attributes['db.system.name']).toBe('postgresql');
    expect(insert.parentSpanId).toBe(byName(spans, AGENT_SERVICE, 'agent.createTask').spanId);
    // The COMPLETED transition's row update happens inside the command's span.
    const execute = byName(spans, AGENT_SERVICE, 'task.execute');
    expect(spans.some((s) => s.name === 'UPDATE tasks' && s.parentSpanId === execute.spanId)).toBe(true);
    // Every span of the trace hangs off another span of it, except the edge's root.
    for (const s of spans) if (s !== edge) expect(ids.has(s.parentSpanId)).toBe(true);

    const logLines = [...c.edges, ...c.agents]
      .flatMap((p) => p.output().split('\n'))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const aboutTask = logLines.filter((l) => l['task_id'] === taskId);
    const services = new Set(aboutTask.map((l) => l['service']));
    expect(services).toEqual(new Set(['pty-ws-edge', 'pty-ws-agent']));
    for (const l of aboutTask) expect(l['trace_id']).toBe(trace);
  }, 60_000);
});
