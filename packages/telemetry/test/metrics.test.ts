import { request } from 'node:http';
import { Writable } from 'node:stream';
import { register as globalRegistry } from 'prom-client';
import {
  FRAME_KINDS,
  Metrics,
  createLogger,
  frameKindOf,
  startMetricsServer,
  type ConnectionSample,
  type SessionSample,
} from '../src';

/** `name{labels} value` lines of the text exposition, keyed by `name{labels}`. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

async function scrape(m: Metrics): Promise<Map<string, number>> {
  return samples(await m.text());
}

function get(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          body: Buffer.concat(chunks).toString(),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('Metrics', () => {
  it('uses a registry of its own, so several nodes fit in one process', async () => {
    const a = new Metrics({ defaultMetrics: false });
    const b = new Metrics({ defaultMetrics: false });
    a.replayRequested();
    expect((await scrape(a)).get('ptyws_replay_requests_total')).toBe(1);
    expect((await scrape(b)).get('ptyws_replay_requests_total')).toBe(0);
    expect(await globalRegistry.getSingleMetric('ptyws_replay_requests_total')).toBeUndefined();
  });

  it('includes the default process/nodejs metrics (event-loop lag among them)', async () => {
    const text = await new Metrics().text();
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
  });

  it('counts frames and bytes out per kind and sockets reached, from plain numbers', async () => {
    const m = new Metrics({ defaultMetrics: false });
    m.frameOut('output', 100, 3);
    m.frameOut('output', 50, 2);
    m.frameOut('membership_changed', 20, 5);
    let s = await scrape(m);
    expect(s.get('ptyws_frames_out_total{kind="output"}')).toBe(2);
    expect(s.get('ptyws_bytes_out_total{kind="output"}')).toBe(150);
    expect(s.get('ptyws_socket_frames_out_total{kind="output"}')).toBe(5);
    expect(s.get('ptyws_frames_out_total{kind="membership_changed"}')).toBe(1);
    for (const kind of FRAME_KINDS) expect(s.has(`ptyws_frames_out_total{kind="${kind}"}`)).toBe(true);
    // Scraping twice does not double the counters.
    m.frameOut('output', 1, 1);
    s = await scrape(m);
    expect(s.get('ptyws_frames_out_total{kind="output"}')).toBe(3);
    expect(s.get('ptyws_bytes_out_total{kind="output"}')).toBe(151);
  });

  it('counts frames in per format', async () => {
    const m = new Metrics({ defaultMetrics: false });
    m.frameIn('json', 40);
    m.frameIn('binary', 5);
    m.frameIn('binary', 6);
    const s = await scrape(m);
    expect(s.get('ptyws_frames_in_total{format="json"}')).toBe(1);
    expect(s.get('ptyws_frames_in_total{format="binary"}')).toBe(2);
    expect(s.get('ptyws_bytes_in_total{format="binary"}')).toBe(11);
  });

  it('computes ptyws_connections from its sources at scrape time', async () => {
    const m = new Metrics({ defaultMetrics: false });
    const conns: ConnectionSample[] = [
      { role: 'controller', binary: false },
      { role: 'observer', binary: true },
      { role: 'observer', binary: true },
      { binary: false },
    ];
    const untrack = m.trackConnections(() => conns);
    let s = await scrape(m);
    expect(s.get('ptyws_connections{role="controller",subprotocol="pty-ws.v1"}')).toBe(1);
    expect(s.get('ptyws_connections{role="observer",subprotocol="pty-ws.v1.binary"}')).toBe(2);
    expect(s.get('ptyws_connections{role="none",subprotocol="pty-ws.v1"}')).toBe(1);
    expect(s.get('ptyws_connections{role="controller",subprotocol="pty-ws.v1.binary"}')).toBe(0);
    conns.pop();
    conns[0] = { role: 'observer', binary: false };
    s = await scrape(m);
    expect(s.get('ptyws_connections{role="controller",subprotocol="pty-ws.v1"}')).toBe(0);
    expect(s.get('ptyws_connections{role="observer",subprotocol="pty-ws.v1"}')).toBe(1);
    expect(s.get('ptyws_connections{role="none",subprotocol="pty-ws.v1"}')).toBe(0);
    untrack();
    s = await scrape(m);
    expect(s.get('ptyws_connections{role="observer",subprotocol="pty-ws.v1.binary"}')).toBe(0);
  });

  it('computes ptyws_sessions from its sources, running/native always present', async () => {
    const m = new Metrics({ defaultMetrics: false });
    const sessions: SessionSample[] = [
      { state: 'running', backend: 'native' },
      { state: 'running', backend: 'native' },
      { state: 'closing', backend: 'tmux' },
    ];
    m.trackSessions(() => sessions);
    const s = await scrape(m);
    expect(s.get('ptyws_sessions{state="running",backend="native"}')).toBe(2);
    expect(s.get('ptyws_sessions{state="closing",backend="tmux"}')).toBe(1);
    expect(s.get('ptyws_sessions{state="running",backend="tmux"}')).toBeUndefined();
    m.trackSessions(() => []);
    const empty = new Metrics({ defaultMetrics: false });
    expect((await scrape(empty)).get('ptyws_sessions{state="running",backend="native"}')).toBe(0);
  });

  it('records replay, lag, reaping, auth, rate limits, echo latency, keyframes, NATS lag and pg queries', async () => {
    const m = new Metrics({ defaultMetrics: false });
    m.replayRequested();
    m.replayRequested();
    m.replayOutOfRange();
    m.replayFramesServed(7);
    m.replayFramesServed(0);
    m.hotWindowMiss();
    m.lagSkip();
    m.connectionReaped();
    m.authFailure('invalid');
    m.authFailure('invalid');
    m.authFailure('token_in_url');
    m.rateLimited('request_keyframe');
    m.echoLatency(0.004);
    m.echoLatency(0.3);
    m.echoLatency(Number.NaN);
    m.keyframe('cadence', 1000, 0.002);
    m.keyframe('on_demand', 500, 0.001);
    m.natsConsumerLag(12);
    m.pgQuery('session_get', 0.003);
    m.connectionOpened(true);
    const s = await scrape(m);
    expect(s.get('ptyws_replay_requests_total')).toBe(2);
    expect(s.get('ptyws_replay_out_of_range_total')).toBe(1);
    expect(s.get('ptyws_replay_frames_total')).toBe(7);
    expect(s.get('ptyws_hot_window_misses_total')).toBe(1);
    expect(s.get('ptyws_output_lag_skips_total')).toBe(1);
    expect(s.get('ptyws_reaped_connections_total')).toBe(1);
    expect(s.get('ptyws_auth_failures_total{reason="invalid"}')).toBe(2);
    expect(s.get('ptyws_auth_failures_total{reason="token_in_url"}')).toBe(1);
    expect(s.get('ptyws_auth_failures_total{reason="expired"}')).toBe(0);
    expect(s.get('ptyws_rate_limited_total{limit="request_keyframe"}')).toBe(1);
    expect(s.get('ptyws_echo_latency_seconds_count')).toBe(2);
    expect(s.get('ptyws_echo_latency_seconds_bucket{le="0.005"}')).toBe(1);
    expect(s.get('ptyws_echo_latency_seconds_bucket{le="+Inf"}')).toBe(2);
    expect(s.get('ptyws_keyframes_total{trigger="cadence"}')).toBe(1);
    expect(s.get('ptyws_keyframe_bytes_total{trigger="on_demand"}')).toBe(500);
    expect(s.get('ptyws_keyframe_seconds_count{trigger="cadence"}')).toBe(1);
    expect(s.get('ptyws_nats_consumer_lag')).toBe(12);
    expect(s.get('ptyws_pg_query_seconds_count{operation="session_get"}')).toBe(1);
    expect(s.get('ptyws_connections_opened_total{subprotocol="pty-ws.v1.binary"}')).toBe(1);
  });

  it('counts parse errors of the terminal mirror by kind, both present from the start', async () => {
    const m = new Metrics({ defaultMetrics: false });
    expect((await scrape(m)).get('ptyws_mirror_parse_errors_total{kind="malformed"}')).toBe(0);
    m.mirrorParseErrors('malformed', 1598);
    m.mirrorParseErrors('exception', 1);
    const s = await scrape(m);
    expect(s.get('ptyws_mirror_parse_errors_total{kind="malformed"}')).toBe(1598);
    expect(s.get('ptyws_mirror_parse_errors_total{kind="exception"}')).toBe(1);
  });

  it('counts sessions by pty read path and helper failures by site, every series present from the start', async () => {
    const m = new Metrics({ defaultMetrics: false });
    let s = await scrape(m);
    for (const path of ['event_loop', 'stream_relay', 'node_pty'])
      expect(s.get(`ptyws_pty_read_path{path="${path}"}`)).toBe(0);
    for (const where of ['stream_relay', 'pty_spawner', 'mirror_worker'])
      expect(s.get(`ptyws_helper_failures_total{where="${where}"}`)).toBe(0);
    m.ptyReadPath('event_loop', 1);
    m.ptyReadPath('event_loop', 1);
    m.ptyReadPath('event_loop', -1);
    m.ptyReadPath('stream_relay', 1);
    m.helperFailure('stream_relay');
    s = await scrape(m);
    expect(s.get('ptyws_pty_read_path{path="event_loop"}')).toBe(1);
    expect(s.get('ptyws_pty_read_path{path="stream_relay"}')).toBe(1);
    expect(s.get('ptyws_helper_failures_total{where="stream_relay"}')).toBe(1);
  });

  it('never lets a caller widen a label: unknown values fold into `other`', async () => {
    const m = new Metrics({ defaultMetrics: false });
    const sessionId = '0190a8f4-7b7e-7c3e-9d2a-3f1b2c4d5e6f';
    m.authFailure(sessionId);
    m.pgQuery(`SELECT * FROM sessions WHERE id = '${sessionId}'`, 0.01);
    m.trackSessions(() => [{ state: 'running', backend: sessionId }]);
    m.trackConnections(() => [{ role: sessionId, binary: false }]);
    const text = await m.text();
    expect(text).not.toContain(sessionId);
    const s = samples(text);
    expect(s.get('ptyws_auth_failures_total{reason="other"}')).toBe(1);
    expect(s.get('ptyws_pg_query_seconds_count{operation="other"}')).toBe(1);
    expect(s.get('ptyws_sessions{state="running",backend="other"}')).toBe(1);
    expect(s.get('ptyws_connections{role="none",subprotocol="pty-ws.v1"}')).toBe(1);
  });

  it('carries only bounded label names: no session, client, task or principal ids', async () => {
    const m = new Metrics({ defaultMetrics: false });
    m.trackConnections(() => [{ role: 'controller', binary: false }]);
    m.trackSessions(() => [{ state: 'running', backend: 'native' }]);
    m.keyframe('cadence', 1, 0.001);
    m.pgQuery('q', 0.001);
    const allowed = new Set([
      'role',
      'subprotocol',
      'state',
      'backend',
      'kind',
      'format',
      'reason',
      'limit',
      'trigger',
      'operation',
      'path',
      'where',
      'le',
    ]);
    for (const metric of await m.registry.getMetricsAsJSON()) {
      for (const v of metric.values) {
        for (const label of Object.keys(v.labels)) {
          if (!allowed.has(label)) throw new Error(`${metric.name} carries label ${label}`);
          expect(label).not.toMatch(/session|client|task|principal|token|id$/);
        }
      }
    }
  });

  it('maps wire frame kinds onto the kind label', () => {
    expect(frameKindOf('Output')).toBe('output');
    expect(frameKindOf('MembershipChanged')).toBe('membership_changed');
    expect(frameKindOf('TaskStatusUpdate')).toBe('task_status_update');
    expect(frameKindOf('Keyframe')).toBe('keyframe');
    expect(frameKindOf('toString')).toBe('other');
    expect(frameKindOf(undefined)).toBe('other');
  });
});

describe('startMetricsServer', () => {
  it('serves /metrics, /healthz and /readyz (503 when not ready)', async () => {
    const m = new Metrics({ defaultMetrics: false });
    m.lagSkip();
    let ready = true;
    const server = await startMetricsServer(m.registry, '127.0.0.1', 0, () => ready);
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const metrics = await get(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.type).toBe(m.contentType);
      expect(metrics.body).toMatch(/^ptyws_output_lag_skips_total 1$/m);
      expect((await get(`${base}/healthz`)).status).toBe(200);
      expect((await get(`${base}/readyz`)).status).toBe(200);
      ready = false;
      expect((await get(`${base}/readyz`)).status).toBe(503);
      expect((await get(`${base}/nope`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('moves to the next free port only when asked (a second agent on the default port)', async () => {
    const m = new Metrics({ defaultMetrics: false });
    const first = await startMetricsServer(m.registry, '127.0.0.1', 0);
    try {
      await expect(startMetricsServer(m.registry, '127.0.0.1', first.port)).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
      const second = await startMetricsServer(m.registry, '127.0.0.1', first.port, () => true, { tryNextPorts: 15 });
      try {
        expect(second.port).toBeGreaterThan(first.port);
        expect(second.port).toBeLessThanOrEqual(first.port + 15);
        expect((await get(`http://127.0.0.1:${second.port}/healthz`)).status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });
});

describe('createLogger', () => {
  it('writes one JSON object per line with the service name and the level label', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const log = createLogger('info', { service: 'pty-ws-test', destination: sink });
    log.debug({ hidden: true }, 'not at info');
    log.info({ session_id: 's1' }, 'attach');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'info', service: 'pty-ws-test', session_id: 's1', msg: 'attach' });
    expect(typeof line['time']).toBe('string');
  });
});
