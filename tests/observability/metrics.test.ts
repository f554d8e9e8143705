/**
 * GET /metrics on a running single-node server: traffic driven over the wire shows up in the
 * contract's series (tests/deploy/lib/contract.ts) with plausible values, and no series carries
 * a session id.
 */
import { SUBPROTOCOL_BINARY, SUBPROTOCOL_JSON, encodeInputFrame } from '@pty-ws/protocol';
import {
  TestContext,
  UpgradeRejected,
  errorPayloadOf,
  http,
  is,
  joinSession,
  tryUpgrade,
  waitUntil,
  type TestClient,
} from '@pty-ws/testkit';
import { METRIC_LABELS, METRICS } from '../deploy/lib/contract';
import { outputText, scrape, shell, type Scrape } from './support';

let ctx: TestContext;
let sessionId: string;
let controller: TestClient;

const base = (): string => ctx.server.httpUrl;
const value = (s: Scrape, series: string): number | undefined => s.samples.get(series);

async function waitForSeries(series: string, check: (v: number) => boolean, what: string): Promise<Scrape> {
  return waitUntil(
    async () => {
      const s = await scrape(base());
      const v = value(s, series);
      return v !== undefined && check(v) ? s : undefined;
    },
    5000,
    what,
  );
}

beforeAll(async () => {
  ctx = await TestContext.start();
  sessionId = (await ctx.createSession(shell())).session_id;
});

afterAll(async () => {
  await ctx?.dispose();
});

describe('GET /metrics', () => {
  it('answers in the Prometheus text format, unauthenticated, with every contract metric and label', async () => {
    const s = await scrape(base());
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const [name, type] of Object.entries(METRICS)) expect(`${name} ${s.types.get(name)}`).toBe(`${name} ${type}`);
    for (const [name, labels] of Object.entries(METRIC_LABELS)) {
      const series = [...s.samples.keys()].filter((k) => k.startsWith(`${name}{`));
      expect(series.length).toBeGreaterThan(0);
      for (const k of series) for (const l of labels) expect(k).toContain(`${l}="`);
    }
    expect(s.samples.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(value(s, 'ptyws_nats_consumer_lag')).toBe(0);
    expect(value(s, 'ptyws_sessions{state="running",backend="native"}')).toBe(1);
  });

  it('counts connections by role and subprotocol while attached', async () => {
    controller = await ctx.attach(sessionId);
    await joinSession(controller, { role: 'controller' });
    const observer = await ctx.attach(sessionId, { protocols: [SUBPROTOCOL_BINARY] });
    await joinSession(observer, { role: 'observer' });
    const idle = await ctx.attach(sessionId);

    let s = await scrape(base());
    expect(value(s, `ptyws_connections{role="controller",subprotocol="${SUBPROTOCOL_JSON}"}`)).toBe(1);
    expect(value(s, `ptyws_connections{role="observer",subprotocol="${SUBPROTOCOL_BINARY}"}`)).toBe(1);
    expect(value(s, `ptyws_connections{role="none",subprotocol="${SUBPROTOCOL_JSON}"}`)).toBe(1);
    expect(value(s, `ptyws_connections_opened_total{subprotocol="${SUBPROTOCOL_JSON}"}`)).toBe(2);
    expect(value(s, 'ptyws_keyframes_total{trigger="on_demand"}')).toBeGreaterThanOrEqual(2);
    expect(value(s, 'ptyws_keyframe_bytes_total{trigger="on_demand"}')).toBeGreaterThan(0);

    observer.ws.close();
    idle.ws.close();
    s = await waitForSeries(
      `ptyws_connections{role="observer",subprotocol="${SUBPROTOCOL_BINARY}"}`,
      (v) => v === 0,
      'the observer to be gone',
    );
    expect(value(s, `ptyws_connections{role="none",subprotocol="${SUBPROTOCOL_JSON}"}`)).toBe(0);
    expect(value(s, `ptyws_connections{role="controller",subprotocol="${SUBPROTOCOL_JSON}"}`)).toBe(1);
  });

  it('measures frames in/out and the echo latency of typed input', async () => {
    const before = await scrape(base());
    const from = controller.mark();
    controller.send('pty.session_input', { data: Buffer.from('echo obs_$((40+2))\n').toString('base64') });
    await waitUntil(() => /obs_42/.test(outputText(controller, from)), 5000, 'the echo');

    // A binary client types too (PW1I).
    const bin = await ctx.attach(sessionId, { protocols: [SUBPROTOCOL_BINARY] });
    await joinSession(bin, { role: 'controller' });
    const binFrom = bin.mark();
    bin.ws.send(encodeInputFrame(Buffer.from('echo bin_$((40+3))\n')));
    await waitUntil(() => /bin_43/.test(outputText(bin, binFrom)), 5000, 'the binary echo');

    const s = await scrape(base());
    const framesOut = value(s, 'ptyws_frames_out_total{kind="output"}')!;
    expect(framesOut).toBeGreaterThan(value(before, 'ptyws_frames_out_total{kind="output"}')!);
    expect(value(s, 'ptyws_bytes_out_total{kind="output"}')).toBeGreaterThan(framesOut);
    expect(value(s, 'ptyws_socket_frames_out_total{kind="output"}')).toBeGreaterThanOrEqual(framesOut);
    expect(value(s, 'ptyws_frames_out_total{kind="membership_changed"}')).toBeGreaterThan(0);
    expect(value(s, 'ptyws_frames_in_total{format="json"}')).toBeGreaterThanOrEqual(3);
    expect(value(s, 'ptyws_frames_in_total{format="binary"}')).toBeGreaterThanOrEqual(1);
    expect(value(s, 'ptyws_bytes_in_total{format="binary"}')).toBeGreaterThan(0);
    const echoes = value(s, 'ptyws_echo_latency_seconds_count')!;
    expect(echoes).toBeGreaterThanOrEqual(2);
    const sum = value(s, 'ptyws_echo_latency_seconds_sum')!;
    expect(sum / echoes).toBeGreaterThan(0);
    expect(sum / echoes).toBeLessThan(2);
    expect(value(s, 'ptyws_echo_latency_seconds_bucket{le="+Inf"}')).toBe(echoes);
    bin.ws.close();
  });

  it('counts replay requests, frames served and out-of-range replays', async () => {
    const before = await scrape(base());
    const late = await ctx.attach(sessionId);
    const id = late.send('pty.join_session', { role: 'observer' }, { replay_from: 1_000_000 });
    const err = await late.waitFor((r) => is.reply(id)(r) && is.error()(r), 4000);
    expect(errorPayloadOf(err)?.code).toBe('REPLAY_OUT_OF_RANGE');
    const again = await ctx.attach(sessionId);
    await joinSession(again, { role: 'observer' }, { replayFrom: 0 });

    const s = await scrape(base());
    const delta = (series: string) => value(s, series)! - value(before, series)!;
    expect(delta('ptyws_replay_requests_total')).toBe(2);
    expect(delta('ptyws_replay_out_of_range_total')).toBe(1);
    expect(delta('ptyws_replay_frames_total')).toBeGreaterThan(0);
    late.ws.close();
    again.ws.close();
  });

  it('counts authentication failures by reason (WebSocket, REST and A2A), each once', async () => {
    const url = ctx.server.attachUrl(sessionId);
    await expect(ctx.connect(sessionId, { token: 'ptyws_not-a-real-token' })).rejects.toBeInstanceOf(UpgradeRejected);
    await expect(ctx.connect(sessionId, { anonymous: true })).rejects.toBeInstanceOf(UpgradeRejected);
    expect((await tryUpgrade(`${url}?access_token=abc`, { token: ctx.server.adminToken })).status).toBe(401);
    expect((await http(ctx.server, 'GET', '/api/v1/sessions', { token: 'ptyws_wrong' })).status).toBe(401);
    const a2aTasks = `/agents/${encodeURIComponent(ctx.config.instanceId)}/a2a/v1/tasks`;
    expect((await http(ctx.server, 'GET', a2aTasks, { token: 'ptyws_wrong_too' })).status).toBe(401);

    const s = await scrape(base());
    expect(value(s, 'ptyws_auth_failures_total{reason="invalid"}')).toBe(3);
    expect(value(s, 'ptyws_auth_failures_total{reason="missing"}')).toBe(1);
    expect(value(s, 'ptyws_auth_failures_total{reason="token_in_url"}')).toBe(1);
    expect(value(s, 'ptyws_auth_failures_total{reason="expired"}')).toBe(0);
  });

  it('counts rate-limited keyframe requests', async () => {
    controller.send('pty.request_keyframe', {});
    const id = controller.send('pty.request_keyframe', {});
    const err = await controller.waitFor((r) => is.reply(id)(r) && is.error()(r), 3000);
    expect(errorPayloadOf(err)?.code).toBe('RATE_LIMITED');
    const s = await scrape(base());
    expect(value(s, 'ptyws_rate_limited_total{limit="request_keyframe"}')).toBe(1);
  });

  it('never labels a series with a session, client or token id', async () => {
    const s = await scrape(base());
    expect(s.text).not.toContain(sessionId);
    expect(s.text).not.toContain(ctx.server.adminToken);
    expect(s.text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  });

  it('counts sessions by state as they end', async () => {
    const res = await http(ctx.server, 'DELETE', `/api/v1/sessions/${sessionId}`);
    expect(res.status).toBe(200);
    await waitForSeries('ptyws_sessions{state="running",backend="native"}', (v) => v === 0, 'the session to end');
    await waitForSeries(
      `ptyws_connections{role="controller",subprotocol="${SUBPROTOCOL_JSON}"}`,
      (v) => v === 0,
      'the controller to be closed with the session',
    );
  });
});
