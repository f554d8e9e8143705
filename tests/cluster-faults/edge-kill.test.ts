/**
 * An edge dies (SIGKILL). Its clients lose their socket; what they missed must be recoverable
 * exactly from the other edge (replay_from), and from the same edge once it is back (the SDK's
 * own reconnect): no frame lost, none doubled, sequences strictly increasing.
 */
import WebSocket from 'ws';
import { PtyClient, type OutputEvent, type WebSocketCtor } from '@pty-ws/client';
import { joinSession, outputBytes, seqOf, waitUntil, type Received } from '@pty-ws/testkit';
import { attachUrl, marker, sequenceReport, since, useFaultCluster } from './support/cluster';

jest.setTimeout(60_000);

const fc = useFaultCluster();

/** Log frames a client received, by sequence: what kind, and the output bytes if any. */
function bySeq(frames: readonly Received[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const r of frames) {
    const seq = seqOf(r);
    const bytes = outputBytes(r);
    if (seq !== undefined && bytes) out.set(seq, bytes.toString('base64'));
  }
  return out;
}

describe('edge killed with SIGKILL', () => {
  const sdkClients: PtyClient[] = [];
  afterAll(() => {
    for (const c of sdkClients) c.close();
  });

  it('a client moving to the other edge with replay_from gets exactly what it missed; the SDK recovers on the restarted edge', async () => {
    const { cluster } = fc();
    const [edgeA, edgeB] = cluster.edges as [(typeof cluster.edges)[0], (typeof cluster.edges)[0]];
    const sessionId = await fc().createShell(edgeB);

    // The watcher: the SDK on edge A, reconnecting by itself.
    const watcher = new PtyClient({
      url: attachUrl(edgeA, cluster.instanceId, sessionId),
      token: cluster.adminToken,
      mode: 'binary',
      WebSocket: WebSocket as unknown as WebSocketCtor,
      autoReconnect: { initialDelayMs: 100, maxDelayMs: 500 },
    });
    sdkClients.push(watcher);
    const seen: OutputEvent[] = [];
    watcher.on('output', (e) => seen.push(e));
    await watcher.connect();
    await watcher.join({ role: 'observer' });

    // The typist on edge B, live for the whole test: its view is the reference.
    const typist = await fc().attach(edgeB, sessionId);
    await joinSession(typist, { role: 'controller' });
    const before = marker('before_kill');
    typist.input(before.cmd);
    await waitUntil(
      () => seen.some((e) => Buffer.from(e.data).toString().includes(before.text)),
      5000,
      'the watcher to see output typed on the other edge',
    );
    await typist.settle(300, 2000);
    const lastSeen = watcher.lastSequence;
    expect(lastSeen).toBeGreaterThan(0);

    const killedAt = Date.now();
    await edgeA.kill('SIGKILL');
    await waitUntil(() => watcher.state === 'reconnecting', 5000, 'the SDK to notice the dead edge');

    // Output while edge A is dead.
    const during = [1, 2, 3, 4, 5].map((i) => marker(`while_dead_${i}`));
    const typedFrom = typist.mark();
    for (const m of during) typist.input(m.cmd);
    await typist.collectOutput(during[4]!.re, 5000, typedFrom);
    await typist.settle(300, 2000);

    // A fresh client on edge B resumes from the watcher's last sequence.
    const mover = await fc().attach(edgeB, sessionId);
    const flush = await joinSession(mover, { role: 'observer' }, { replayFrom: lastSeen, timeoutMs: 8000 });
    await mover.settle(300, 2000);
    const { seqs, problems } = sequenceReport(mover.frames, flush.from);
    expect(problems).toEqual([]);
    expect(seqs[0]).toBe(lastSeen + 1);
    const replayed = mover.outputSince(flush.from).toString('utf8');
    for (const m of during) expect(replayed).toMatch(m.re);
    // Byte for byte what the live typist got under the same sequences.
    const reference = bySeq(typist.frames);
    const moved = bySeq(mover.frames.slice(flush.from));
    for (const [seq, data] of moved)
      if (reference.has(seq)) expect({ seq, data }).toEqual({ seq, data: reference.get(seq) });
    const missedOutputs = [...reference.keys()].filter((s) => s > lastSeen && s <= Math.max(...seqs));
    expect([...moved.keys()].filter((s) => s <= Math.max(...seqs))).toEqual(missedOutputs);

    // Edge A comes back on its port: the SDK rejoins with replay_from by itself.
    await edgeA.restart();
    await waitUntil(
      () => seen.some((e) => Buffer.from(e.data).toString().includes(during[4]!.text)),
      10_000,
      `the SDK to replay what it missed after the edge restarted\n${fc().logs()}`,
    );
    const recoveredMs = since(killedAt);
    const outputSeqs = seen.map((e) => e.sequence);
    const repeats = outputSeqs.filter((s, i) => i > 0 && s <= outputSeqs[i - 1]!);
    expect(repeats).toEqual([]);
    // Every Output the typist saw after the watcher's last sequence reached the watcher too.
    const watcherSet = new Set(outputSeqs);
    const upTo = Math.max(...outputSeqs);
    expect([...reference.keys()].filter((s) => s > lastSeen && s <= upTo && !watcherSet.has(s))).toEqual([]);
    process.stdout.write(`edge-kill: SDK back on the restarted edge ${recoveredMs} ms after the kill\n`);
  });
});
