/**
 * nats-server restarts mid-session (SIGTERM, then started again on the same port and store).
 * Every service reconnects by itself; sessions must resume, and each session's log must stay one
 * gapless run 1..N with no sequence used twice, across the outage.
 */
import { joinSession, type TestClient } from '@pty-ws/testkit';
import { httpRequest, waitReadyz } from './support/http';
import { marker, sequenceReport, since, useFaultCluster, type FaultCluster } from './support/cluster';
import { OwnNatsServer } from './support/nats-server';

jest.setTimeout(90_000);

let nats: OwnNatsServer | undefined;
const fc = useFaultCluster(
  // No time-driven keyframes: the quiet case must really have nothing to log during the outage.
  { keyframeIntervalS: 3600 },
  {
    setup: async () => {
      nats = await OwnNatsServer.start();
      return { natsUrl: nats.url };
    },
    teardown: async () => {
      await nats?.dispose();
    },
  },
);

/** Types and waits for the marker; resolves with how long the echo took. */
async function roundTrip(c: TestClient, tag: string, timeoutMs: number): Promise<number> {
  const m = marker(tag);
  const t0 = Date.now();
  const from = c.mark();
  c.input(m.cmd);
  await c.collectOutput(m.re, timeoutMs, from);
  return since(t0);
}

interface Attached {
  sessionId: string;
  typist: TestClient;
  watcher: TestClient;
}

/** A shell with a controller on edge A and an observer on edge B, output flowing. */
async function attachedShell(f: FaultCluster): Promise<Attached> {
  const [edgeA, edgeB] = f.cluster.edges as [(typeof f.cluster.edges)[0], (typeof f.cluster.edges)[0]];
  const sessionId = await f.createShell(edgeA);
  const typist = await f.attach(edgeA, sessionId);
  await joinSession(typist, { role: 'controller' });
  const watcher = await f.attach(edgeB, sessionId);
  await joinSession(watcher, { role: 'observer' });
  await roundTrip(typist, 'before_restart', 5000);
  await watcher.collectOutput(marker('before_restart').re, 5000);
  return { sessionId, typist, watcher };
}

/** SIGTERM (or `signal`), 1 s down, start again; waits until both edges are ready again. */
async function restartNats(f: FaultCluster, label: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const [edgeA, edgeB] = f.cluster.edges as [(typeof f.cluster.edges)[0], (typeof f.cluster.edges)[0]];
  const stoppedAt = Date.now();
  await nats!.stop(signal);
  const notReadyMs = await waitReadyz(edgeA.httpUrl, 503, 10_000);
  await new Promise((r) => setTimeout(r, 1000));
  await nats!.start();
  const readyA = await waitReadyz(edgeA.httpUrl, 200, 20_000);
  const readyB = await waitReadyz(edgeB.httpUrl, 200, 20_000);
  process.stdout.write(
    `nats-restart(${label}): edge A not ready ${notReadyMs} ms after ${signal}; ready again ${readyA} ms (A) / ${readyB} ms (B) after the restart; outage ${since(stoppedAt)} ms\n`,
  );
}

/** Reads the whole log back (replay_from 0) and checks it is exactly 1..N; returns its output text. */
async function expectWholeLog(f: FaultCluster, sessionId: string): Promise<string> {
  const [edgeA, edgeB] = f.cluster.edges as [(typeof f.cluster.edges)[0], (typeof f.cluster.edges)[0]];
  const info = await httpRequest(edgeA.httpUrl, 'GET', `/api/v1/sessions/${sessionId}`, {
    token: f.cluster.adminToken,
  });
  const replay = (info.body as { replay: { first_sequence: number; last_sequence: number } }).replay;
  expect(replay.first_sequence).toBe(1);
  const reader = await f.attach(edgeB, sessionId);
  const flush = await joinSession(reader, { role: 'observer' }, { replayFrom: 0, timeoutMs: 8000 });
  await reader.settle(300, 2000);
  const { seqs, problems } = sequenceReport(reader.frames, flush.from);
  expect(problems).toEqual([]);
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  // The reader's own join appended one MembershipChanged after the REST read.
  expect(seqs.length).toBeGreaterThan(replay.last_sequence);
  return reader.outputSince(flush.from).toString('utf8');
}

describe('nats-server restarted mid-session', () => {
  it('a quiet session resumes on the same connections; its log stays gapless and unique', async () => {
    const f = fc();
    const { sessionId, typist, watcher } = await attachedShell(f);
    await typist.settle(300, 2000);
    await restartNats(f, 'quiet');

    expect(typist.isOpen).toBe(true);
    const echoMs = await roundTrip(typist, 'after_restart', 15_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${f.logs()}`);
    });
    await watcher.collectOutput(marker('after_restart').re, 5000);
    process.stdout.write(`nats-restart(quiet): first echo after the restart took ${echoMs} ms\n`);
    await roundTrip(typist, 'steady_again', 5000);
    await typist.settle(300, 2000);

    for (const c of [typist, watcher]) expect(sequenceReport(c.frames).problems).toEqual([]);
    const all = await expectWholeLog(f, sessionId);
    for (const tag of ['before_restart', 'after_restart', 'steady_again']) expect(all).toMatch(marker(tag).re);
  });

  it('output printed while NATS is down is logged once it is back, and the session goes on', async () => {
    const f = fc();
    const { sessionId, typist, watcher } = await attachedShell(f);
    // The shell prints while NATS is away: the agent has output to log during the outage.
    typist.input('sleep 1; echo during_outage_$((40+2))\n');
    await typist.collectOutput(/sleep 1; echo during_outage/, 3000);
    await typist.settle(100, 1000);
    await restartNats(f, 'output during outage');

    // Late but whole: what the shell printed during the outage reaches the clients...
    await typist.collectOutput(/during_outage_42/, 10_000).catch((err: Error) => {
      throw new Error(`output printed during the NATS outage never arrived: ${err.message}\n${f.logs()}`);
    });
    await watcher.collectOutput(/during_outage_42/, 5000);
    // ...and the session keeps working.
    await roundTrip(typist, 'after_restart', 10_000).catch((err: Error) => {
      throw new Error(`no output after the NATS restart: ${err.message}\n${f.logs()}`);
    });
    await typist.settle(300, 2000);
    for (const c of [typist, watcher]) expect(sequenceReport(c.frames).problems).toEqual([]);
    const all = await expectWholeLog(f, sessionId);
    expect(all).toMatch(/during_outage_42/);
    expect(all).toMatch(marker('after_restart').re);
  });

  it('a stream printing while NATS is killed reaches the log and both edges whole, in order, once', async () => {
    const f = fc();
    const { sessionId, typist, watcher } = await attachedShell(f);
    // Bursts of 20 lines with a short sleep between: still printing when the server dies (and
    // while it is down), with appends in flight at the kill.
    const lines = 3000;
    typist.input(
      `i=0; while [ $i -lt ${lines} ]; do i=$((i+1)); echo line_$i; [ $((i % 20)) -eq 0 ] && sleep 0.01; done; echo stream_$((40+2))_done\n`,
    );
    await typist.collectOutput(/line_50\r?\n/, 10_000);
    const seenAtKill =
      typist
        .outputSince(0)
        .toString('utf8')
        .match(/line_\d+\r?\n/g)?.length ?? 0;
    await restartNats(f, 'killed during a stream', 'SIGKILL');
    process.stdout.write(
      `nats-restart(killed during a stream): ${seenAtKill} of ${lines} lines were out at the kill\n`,
    );

    await typist.collectOutput(/stream_42_done/, 30_000).catch((err: Error) => {
      throw new Error(`the stream never finished after the NATS kill: ${err.message}\n${f.logs()}`);
    });
    await watcher.collectOutput(/stream_42_done/, 10_000);
    await typist.settle(300, 2000);
    const everyLine = Array.from({ length: lines }, (_, i) => i + 1);
    for (const c of [typist, watcher]) {
      expect(sequenceReport(c.frames).problems).toEqual([]);
      const seen = [
        ...c
          .outputSince(0)
          .toString('utf8')
          .matchAll(/line_(\d+)\r?\n/g),
      ].map((m) => Number(m[1]));
      expect(seen).toEqual(everyLine);
    }
    const all = await expectWholeLog(f, sessionId);
    expect([...all.matchAll(/line_(\d+)\r?\n/g)].map((m) => Number(m[1]))).toEqual(everyLine);
  });
});
