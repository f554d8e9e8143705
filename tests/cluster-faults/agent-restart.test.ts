/**
 * The agent dies (SIGKILL) and is started again with the same id. Its native sessions' processes
 * died with it; the restarted agent closes them as orphans (Closed, reason instance_terminated,
 * appended to each log), so attached clients learn what happened instead of waiting forever.
 */
import WebSocket from 'ws';
import { PtyClient, type ClosedEvent, type WebSocketCtor } from '@pty-ws/client';
import { TestClient, UpgradeRejected, is, joinSession, sessionFrameOf, waitUntil } from '@pty-ws/testkit';
import { httpRequest } from './support/http';
import { attachUrl, marker, sequenceReport, since, useFaultCluster } from './support/cluster';

jest.setTimeout(60_000);

const fc = useFaultCluster();

describe('agent killed and restarted', () => {
  const sdkClients: PtyClient[] = [];
  afterAll(() => {
    for (const c of sdkClients) c.close();
  });

  it('live clients get Closed(instance_terminated); a reconnecting client learns it too', async () => {
    const { cluster } = fc();
    const [edgeA, edgeB] = cluster.edges as [(typeof cluster.edges)[0], (typeof cluster.edges)[0]];
    const [agent] = cluster.agents as [(typeof cluster.agents)[0]];
    const sessionId = await fc().createShell(edgeA);

    // Raw client on edge A, SDK client on edge B: both stay attached through the restart.
    const raw = await fc().attach(edgeA, sessionId);
    await joinSession(raw, { role: 'controller' });
    const sdk = new PtyClient({
      url: attachUrl(edgeB, cluster.instanceId, sessionId),
      token: cluster.adminToken,
      WebSocket: WebSocket as unknown as WebSocketCtor,
      autoReconnect: { initialDelayMs: 100, maxDelayMs: 500 },
    });
    sdkClients.push(sdk);
    const closedEvents: ClosedEvent[] = [];
    sdk.on('closed', (e) => closedEvents.push(e));
    await sdk.connect();
    await sdk.join({ role: 'observer' });

    // A third client leaves before the crash and comes back afterwards with replay_from.
    const away = await fc().attach(edgeB, sessionId);
    await joinSession(away, { role: 'observer' });
    const m = marker('before_agent_kill');
    const from = raw.mark();
    raw.input(m.cmd);
    await raw.collectOutput(m.re, 5000, from);
    await away.collectOutput(m.re, 5000);
    await away.settle(300, 2000);
    const awayLast = Math.max(...sequenceReport(away.frames).seqs);
    away.terminate();

    const killedAt = Date.now();
    await agent.kill('SIGKILL');
    await agent.restart();
    const restartedMs = since(killedAt);

    const closedFrame = await raw.waitFor(is.kind('Closed'), 10_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${fc().logs()}`);
    });
    const closedMs = since(killedAt);
    expect(sessionFrameOf(closedFrame, 'Closed')).toMatchObject({ reason: 'instance_terminated', exit_code: null });
    await waitUntil(() => closedEvents.length > 0, 5000, 'the SDK client to report Closed');
    expect(closedEvents[0]).toMatchObject({ reason: 'instance_terminated', exitCode: null });
    expect(sequenceReport(raw.frames).problems).toEqual([]);
    process.stdout.write(
      `agent-restart: agent ready again ${restartedMs} ms after SIGKILL; live client got Closed after ${closedMs} ms\n`,
    );

    // The session is closed for the control plane too.
    const info = await httpRequest(edgeA.httpUrl, 'GET', `/api/v1/sessions/${sessionId}`, {
      token: cluster.adminToken,
    });
    expect(info.body).toMatchObject({ state: 'closed', closed_reason: 'instance_terminated' });

    // The client that was away: its replay_from reconnect must tell it the session ended. Either
    // the replay carries the Closed frame, or the attach is refused because the session closed.
    let refused: UpgradeRejected | undefined;
    try {
      const back = await TestClient.connect(attachUrl(edgeB, cluster.instanceId, sessionId), {
        token: cluster.adminToken,
      });
      try {
        await back.hello();
        back.send('pty.join_session', { role: 'observer' }, { replay_from: awayLast });
        const closed = await back.waitFor(is.kind('Closed'), 5000);
        expect(sessionFrameOf(closed, 'Closed')).toMatchObject({ reason: 'instance_terminated' });
      } finally {
        back.terminate();
      }
    } catch (err) {
      if (!(err instanceof UpgradeRejected)) throw err;
      refused = err;
    }
    if (refused) {
      process.stdout.write(`agent-restart: replay_from reconnect refused: ${refused.status} ${refused.body}\n`);
      expect(refused.status).toBe(404);
      expect(refused.body).toMatch(/closed/);
    }

    // The restarted agent serves new sessions.
    const fresh = await fc().createShell(edgeB);
    const c = await fc().attach(edgeA, fresh);
    await joinSession(c, { role: 'controller' });
    const again = marker('new_agent');
    const f2 = c.mark();
    c.input(again.cmd);
    await c.collectOutput(again.re, 5000, f2);
  });
});
