/**
 * The frame log unreachable (the cluster's own nats-server killed) while a session prints. Shorter
 * than PTYWS_LOG_OUTAGE_GIVE_UP_S: the agent keeps the output (holding the PTY once
 * PTYWS_LOG_OUTAGE_BUFFER_BYTES wait) and appends it once the log is back, so nothing is lost.
 * Longer: the session ends with reason `error`, and nothing ends silently: every reader gets
 * `Closed` reason `error`, an Error and the goodbye, REST says `error`, the log ends in that `Closed`.
 */
import type { Config } from '@pty-ws/config';
import { joinSession, jsonFrame, sessionFrameOf, waitUntil, type TestClient } from '@pty-ws/testkit';
import { httpRequest, waitReadyz } from './support/http';
import { marker, sequenceReport, since, useFaultCluster, type FaultCluster } from './support/cluster';
import { OwnNatsServer } from './support/nats-server';

jest.setTimeout(120_000);

/** A cluster on a nats-server of its own, which the tests kill and start again. */
function clusterOnOwnNats(overrides: Partial<Config>): { fc: () => FaultCluster; nats: () => OwnNatsServer } {
  let nats: OwnNatsServer | undefined;
  const fc = useFaultCluster(overrides, {
    setup: async () => {
      nats = await OwnNatsServer.start();
      return { natsUrl: nats.url };
    },
    teardown: async () => {
      await nats?.dispose();
    },
  });
  return {
    fc,
    nats: () => {
      if (!nats) throw new Error('nats-server not started');
      return nats;
    },
  };
}

/** A shell with a controller on edge A and an observer on edge B, output flowing to both. */
async function watchedShell(f: FaultCluster): Promise<{ sessionId: string; typist: TestClient; watcher: TestClient }> {
  const sessionId = await f.createShell(f.cluster.edges[0]);
  const roles = ['controller', 'observer'] as const;
  const [typist, watcher] = await Promise.all(
    roles.map(async (role, i) => {
      const c = await f.attach(f.cluster.edges[i]!, sessionId);
      await joinSession(c, { role });
      return c;
    }),
  );
  const m = marker('before_outage');
  typist!.input(m.cmd);
  for (const c of [typist!, watcher!]) await c.collectOutput(m.re, 5000);
  return { sessionId, typist: typist!, watcher: watcher! };
}

/** Waits for `line` in the agent's log (its JSON lines), failing with every process's output. */
async function agentLogs(f: FaultCluster, line: RegExp, timeoutMs: number): Promise<void> {
  const agent = f.cluster.agents[0]!;
  await waitUntil(() => line.test(agent.output()), timeoutMs, `agent log ${line}`).catch((err: Error) => {
    throw new Error(`${err.message}\n${f.logs()}`);
  });
}

/** The line numbers of `line_<n>` in order of arrival. */
function lineNumbers(text: string): number[] {
  return [...text.matchAll(/line_(\d+)\r?\n/g)].map((m) => Number(m[1]));
}

describe('frame log unreachable for less than the give-up time', () => {
  // 64 KiB may wait for the log: a stream of a few hundred KiB fills it during the outage.
  const { fc, nats } = clusterOnOwnNats({ logOutageBufferBytes: 64 * 1024, logOutageGiveUpS: 60 });

  it('holds the PTY once the buffer is full, then logs every line once, in order, without holes', async () => {
    const f = fc();
    const { sessionId, typist, watcher } = await watchedShell(f);
    const lines = 20_000; // ~400 KiB: far more than the buffer
    typist.input(
      `i=0; while [ $i -lt ${lines} ]; do i=$((i+1)); echo line_$i; [ $((i % 200)) -eq 0 ] && sleep 0.01; done; echo stream_$((40+2))_done\n`,
    );
    await typist.collectOutput(/line_50\r?\n/, 10_000);
    const stoppedAt = Date.now();
    await nats().stop('SIGKILL');
    // The output waits for the log (the program blocks on its terminal), it is not dropped.
    await agentLogs(f, /frame log behind: output held until it catches up/, 30_000);
    const heldAfter = since(stoppedAt);
    await nats().start();
    const restartedAt = Date.now();
    await agentLogs(f, /frame log caught up: output flows again/, 30_000);
    const resumedAfter = since(restartedAt);
    await typist.collectOutput(/stream_42_done/, 60_000).catch((err: Error) => {
      throw new Error(`the stream never finished after the outage: ${err.message}\n${f.logs()}`);
    });
    await watcher.collectOutput(/stream_42_done/, 20_000);
    await typist.settle(300, 2000);
    process.stdout.write(
      `log-outage(short): output held ${heldAfter} ms after the kill; flowing again ${resumedAfter} ms after the restart\n`,
    );

    const everyLine = Array.from({ length: lines }, (_, i) => i + 1);
    for (const c of [typist, watcher]) {
      expect(sequenceReport(c.frames).problems).toEqual([]);
      expect(lineNumbers(c.outputSince(0).toString('utf8'))).toEqual(everyLine);
    }
    // The log itself: gapless from 1, every line once.
    const reader = await f.attach(f.cluster.edges[1]!, sessionId);
    const flush = await joinSession(reader, { role: 'observer' }, { replayFrom: 0, timeoutMs: 15_000 });
    await reader.settle(300, 5000);
    const { seqs, problems } = sequenceReport(reader.frames, flush.from);
    expect(problems).toEqual([]);
    expect(seqs[0]).toBe(1);
    expect(lineNumbers(reader.outputSince(flush.from).toString('utf8'))).toEqual(everyLine);
    // The session goes on.
    const after = marker('after_outage');
    typist.input(after.cmd);
    await typist.collectOutput(after.re, 10_000);
  });
});

describe('frame log unreachable for longer than the give-up time', () => {
  const { fc, nats } = clusterOnOwnNats({ logOutageGiveUpS: 2 });

  it('ends the session with reason error: every reader gets Closed(error), an Error and the goodbye; REST says error', async () => {
    const f = fc();
    const [edgeA] = f.cluster.edges as [(typeof f.cluster.edges)[0]];
    const { sessionId, typist, watcher } = await watchedShell(f);
    // Printing throughout, so appends are due while the log is away.
    typist.input('i=0; while :; do i=$((i+1)); echo tick_$i; sleep 0.05; done\n');
    await typist.collectOutput(/tick_5\r?\n/, 10_000);
    const stoppedAt = Date.now();
    await nats().stop('SIGKILL');
    await agentLogs(f, /frame log append failed for good: closing the session/, 60_000);
    const gaveUpAfter = since(stoppedAt);
    await nats().start();
    const restartedAt = Date.now();

    for (const c of [typist, watcher]) {
      const closed = await c
        .waitFor((r) => sessionFrameOf(r, 'Closed') !== undefined, 60_000)
        .catch((err: Error) => {
          throw new Error(`no Closed after the log was cut: ${err.message}\n${f.logs()}`);
        });
      expect(sessionFrameOf(closed, 'Closed')).toMatchObject({ reason: 'error', exit_code: null });
      const error = await c.waitFor((r) => jsonFrame(r)?.op === 'Error', 10_000);
      expect(jsonFrame(error)?.payload).toMatchObject({ code: 'INTERNAL' });
      const goodbye = await c.waitFor((r) => jsonFrame(r)?.op === 'binding_goodbye', 10_000);
      expect(jsonFrame(goodbye)?.payload).toMatchObject({ reason: 'session_closed' });
      expect(c.frames.indexOf(closed)).toBeLessThan(c.frames.indexOf(error));
      expect(c.frames.indexOf(error)).toBeLessThan(c.frames.indexOf(goodbye));
      expect((await c.closed).code).toBe(1000);
      expect(c.frames.filter((r) => sessionFrameOf(r, 'Closed') !== undefined)).toHaveLength(1);
      // What the reader did get has no gap and no repeat.
      expect(sequenceReport(c.frames).problems).toEqual([]);
    }
    const toldAfter = since(restartedAt);

    await waitReadyz(edgeA.httpUrl, 200, 30_000);
    const info = await waitUntil(
      async () => {
        const res = await httpRequest(edgeA.httpUrl, 'GET', `/api/v1/sessions/${sessionId}`, {
          token: f.cluster.adminToken,
        });
        const body = res.body as { state?: string; closed_reason?: string } | undefined;
        return res.status === 200 && body?.state === 'closed' ? body : undefined;
      },
      20_000,
      'the session closed in REST',
    );
    expect(info).toMatchObject({ state: 'closed', closed_reason: 'error', exit_code: null });

    // The log ends where the outage began, with the same Closed(error).
    await agentLogs(f, /frame log cut: Closed logged after the last stored frame/, 30_000);
    const reader = await f.attach(edgeA, sessionId);
    reader.send('pty.join_session', { role: 'observer' }, { replay_from: 0 });
    await reader.waitFor((r) => jsonFrame(r)?.op === 'binding_goodbye', 15_000);
    const replayed = sequenceReport(reader.frames);
    expect(replayed.problems).toEqual([]);
    expect(replayed.seqs[0]).toBe(1);
    const last = [...reader.frames].reverse().find((r) => sessionFrameOf(r, 'Closed') !== undefined);
    expect(last && sessionFrameOf(last, 'Closed')).toMatchObject({ reason: 'error', exit_code: null });
    // A join after the close is told too: the Error right after that Closed, then the goodbye.
    const tail = reader.frames.slice(reader.frames.indexOf(last!) + 1).map((r) => jsonFrame(r));
    expect(tail.map((j) => [j?.op, j?.payload['code'] ?? j?.payload['reason']])).toEqual([
      ['Error', 'INTERNAL'],
      ['binding_goodbye', 'session_closed'],
    ]);
    process.stdout.write(
      `log-outage(long): gave up ${gaveUpAfter} ms after the kill; readers told ${toldAfter} ms after the restart\n`,
    );
  });
});
