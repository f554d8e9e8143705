/**
 * The k6 scripts themselves (not the Node driver's copies), run unchanged by a small k6 stand-in
 * (k6-shim/) against a real single-node server: reconnect-storm's replay check passes for a
 * replay that resumes and fails for the re-join without `replay_from` that once scored 100 %;
 * attach-storm and token-mix pass their checks; every teardown closes the sessions and revokes
 * the tokens its setup made. typing-latency and observer-fanout hold a socket 20-30 s an
 * iteration and are left to the static checks (k6-structure.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@pty-ws/testkit';
import { call } from '../../loadtest/src/rest';
import { runK6Script, type K6Sample } from './k6-shim/run-k6';

const script = (name: string): string => join(__dirname, '..', '..', 'loadtest', 'k6', `${name}.ts`);
const SCRIPT = script('reconnect-storm');

const values = (samples: K6Sample[], metric: string, of?: string): number[] =>
  samples.filter((s) => s.metric === metric && (of === undefined || s.tags['of'] === of)).map((s) => s.value);

describe('k6 scripts run by a k6 stand-in', () => {
  let server: TestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer({});
    env = { PTYWS_URL: server.httpUrl, PTYWS_TOKEN: server.adminToken, PTYWS_INSTANCE: server.instanceId };
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
  });

  async function get<T>(path: string): Promise<T> {
    const ep = {
      httpUrl: server.httpUrl,
      wsUrl: server.wsUrl,
      instanceId: server.instanceId,
      token: server.adminToken,
    };
    return (await call(ep, 'GET', path)).body as T;
  }

  async function openSessions(): Promise<unknown[]> {
    const body = await get<{ sessions: { closed_at: unknown }[] }>('/api/v1/sessions');
    return body.sessions.filter((s) => s.closed_at === null);
  }

  it('scores every re-join with replay_from as resumed, and tears its session down', async () => {
    const { samples, error } = await runK6Script({ script: SCRIPT, env, iterations: 2 });
    expect(error).toBeUndefined();
    expect(values(samples, 'ptyws_replay_ok')).toEqual([1, 1]);
    expect(values(samples, 'ptyws_samples', 'ptyws_replay_ok')).toHaveLength(2);
    expect(values(samples, 'ptyws_rejoin_keyframe_ms')).toHaveLength(2);
    expect(values(samples, 'ptyws_samples', 'ptyws_rejoin_keyframe_ms')).toHaveLength(2);
    expect(values(samples, 'checks')).toEqual([1, 1]);
    expect(await openSessions()).toEqual([]);
  }, 60_000);

  it('scores a re-join without replay_from as failed (the first log frame is not last seen + 1)', async () => {
    const source = readFileSync(SCRIPT, 'utf8');
    const rejoin = 'watch(data.sessionId, 5, first.last)';
    expect(source).toContain(rejoin);
    const { samples, error } = await runK6Script({
      script: SCRIPT,
      source: source.replace(rejoin, 'watch(data.sessionId, 5)'),
      env,
      iterations: 2,
    });
    expect(error).toBeUndefined();
    expect(values(samples, 'ptyws_replay_ok')).toEqual([0, 0]);
  }, 60_000);

  it('attach-storm: every attach reaches its Keyframe; the session is torn down', async () => {
    const { samples, error } = await runK6Script({
      script: script('attach-storm'),
      env: { ...env, PACE_S: '0' },
      iterations: 3,
    });
    expect(error).toBeUndefined();
    expect(values(samples, 'ptyws_attach_keyframe_ms')).toHaveLength(3);
    expect(values(samples, 'ptyws_samples', 'ws_connecting')).toHaveLength(3);
    expect(values(samples, 'checks')).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await openSessions()).toEqual([]);
  }, 60_000);

  it('token-mix: every case as expected; its sessions closed and its tokens revoked', async () => {
    const { samples, error } = await runK6Script({ script: script('token-mix'), env, iterations: 30 });
    expect(error).toBeUndefined();
    expect(values(samples, 'ptyws_auth_as_expected')).toEqual(Array(30).fill(1));
    expect(await openSessions()).toEqual([]);
    const tokens = await get<{ tokens: { created_by: string; revoked_at: unknown }[] }>('/api/v1/tokens');
    const minted = tokens.tokens.filter((t) => t.created_by !== 'startup');
    expect(minted).toHaveLength(3);
    expect(minted.filter((t) => t.revoked_at === null)).toEqual([]);
  }, 60_000);
});
