/**
 * Replay (binding §8, scenarios 4 and 5; extension scenarios 6 and 7; docs/spec/README.md interpretations
 * 3 and 7).
 */
import {
  delay,
  describeFrame,
  outputBytes as outputBytesOf,
  gaps,
  is,
  isLogFrame,
  joinSession,
  logSequences,
  seqOf,
  sequenceViolations,
  type Received,
  type TestClient,
} from '@pty-ws/testkit';
import type { TestContext } from '@pty-ws/testkit';
import { decodeSnapshot, expectBindingError, jsonOf, marker, shell, useServer } from './support';

/** Types commands on `ctl`, waiting for each one's output. */
async function produce(ctl: TestClient, tags: string[]): Promise<void> {
  for (const tag of tags) {
    const m = marker(tag);
    const from = ctl.mark();
    ctl.input(m.cmd);
    await ctl.collectOutput(m.re, 3000, from);
  }
}

function lastLogSeq(c: TestClient): number {
  const seqs = logSequences(c.frames);
  return seqs[seqs.length - 1] ?? 0;
}

/** The frame's identity for comparisons across connections: op + payload (not the envelope id/ts). */
function canonical(r: Received): string {
  if (r.type === 'binary') return `bin:${r.data.toString('base64')}`;
  if (r.type !== 'json') return 'text';
  return JSON.stringify({ op: r.frame.op, seq: r.frame.sequence, payload: r.frame.payload });
}

async function setup(ctx: () => TestContext): Promise<{ sessionId: string; ctl: TestClient }> {
  const sessionId = (await ctx().createSession(shell())).session_id;
  const ctl = await ctx().attach(sessionId);
  await joinSession(ctl, { role: 'controller', client_label: 'driver' });
  return { sessionId, ctl };
}

describe('replay within the window', () => {
  const ctx = useServer();

  it('binding scenario 4: replay after sequence N returns N+1..M in order', async () => {
    const { sessionId, ctl } = await setup(ctx);
    const a = await ctx().attach(sessionId);
    await joinSession(a, { role: 'observer', client_label: 'a' });
    await produce(ctl, ['one']);
    await a.collectOutput(marker('one').re);
    await a.settle(200);
    const n = lastLogSeq(a);
    await a.close();

    await produce(ctl, ['two', 'three']);
    await ctl.settle(250);
    const m = lastLogSeq(ctl);
    expect(m).toBeGreaterThan(n);

    const a2 = await ctx().attach(sessionId);
    expect((await a2.hello()).session.current_sequence).toBe(m);
    const flush = await joinSession(a2, { role: 'observer', client_label: 'a2' }, { replayFrom: n });
    const replayed = flush.frames.filter((r) => isLogFrame(r) && (seqOf(r) as number) <= m);
    const replayedSeqs = replayed.map((r) => seqOf(r) as number);
    expect(replayedSeqs).toEqual(Array.from({ length: m - n }, (_, i) => n + 1 + i));
    // Identical to what the controller saw live at those sequence numbers.
    const live = new Map(ctl.frames.filter(isLogFrame).map((r) => [seqOf(r), canonical(r)]));
    for (const r of replayed) expect(canonical(r)).toBe(live.get(seqOf(r)));
    expect(a2.outputSince(flush.from).toString()).toMatch(marker('three').re);
    expect(sequenceViolations(a2.frames)).toEqual([]);
  });

  it('interpretation 3: join flush order is RoleAssigned → replayed frames → MembershipChanged → Keyframe → live', async () => {
    const { sessionId, ctl } = await setup(ctx);
    await produce(ctl, ['first']);
    await ctl.settle(200);
    const n = lastLogSeq(ctl);
    await produce(ctl, ['second']);
    await ctl.settle(200);
    const m = lastLogSeq(ctl);

    const b = await ctx().attach(sessionId);
    const flush = await joinSession(b, { role: 'observer' }, { replayFrom: n });
    const kinds = flush.frames.filter((r) => r.type === 'binary' || is.op('pty.session_frame')(r));
    expect(is.kind('RoleAssigned')(kinds[0] as Received)).toBe(true);
    const middle = kinds.slice(1, -2);
    expect(middle.map((r) => seqOf(r))).toEqual(Array.from({ length: m - n }, (_, i) => n + 1 + i));
    const membership = kinds[kinds.length - 2] as Received;
    expect(is.kind('MembershipChanged')(membership)).toBe(true);
    expect(JSON.stringify(jsonOf(membership).payload)).toContain(flush.clientId);
    expect(seqOf(membership)).toBe(m + 1);
    expect(flush.keyframe.anchor_sequence).toBe(m + 1);
    expect(seqOf(flush.keyframeFrame)).toBe(m + 1);
    // The RoleAssigned went before any log frame was written to this connection.
    expect(seqOf(flush.roleFrame)).toBe(0);

    const liveFrom = b.mark();
    const l = marker('afterflush');
    ctl.input(l.cmd);
    await b.collectOutput(l.re, 3000, liveFrom);
    const liveSeqs = b.frames
      .slice(liveFrom)
      .filter(isLogFrame)
      .map((r) => seqOf(r) as number);
    expect(Math.min(...liveSeqs)).toBe(m + 2);
    expect(gaps(liveSeqs)).toEqual([]);
  });

  it('extension scenario 6: replay within window — missed frames, then a Keyframe, then live', async () => {
    const { sessionId, ctl } = await setup(ctx);
    const a = await ctx().attach(sessionId);
    await joinSession(a, { role: 'observer' });
    await produce(ctl, ['seen']);
    await a.collectOutput(marker('seen').re);
    await a.settle(200);
    const n = lastLogSeq(a);
    a.terminate(); // transport failure, not an orderly leave
    await produce(ctl, ['missed1', 'missed2']);
    await ctl.settle(200);

    const back = await ctx().attach(sessionId);
    const flush = await joinSession(back, { role: 'observer' }, { replayFrom: n });
    const replayedText = back.outputSince(flush.from).toString();
    expect(replayedText).toMatch(marker('missed1').re);
    expect(replayedText).toMatch(marker('missed2').re);
    expect(replayedText).not.toMatch(marker('seen').re);
    const kfIndex = back.frames.indexOf(flush.keyframeFrame);
    const lastReplayed = Math.max(...flush.frames.filter(isLogFrame).map((r) => seqOf(r) as number));
    expect(flush.keyframe.anchor_sequence).toBeGreaterThanOrEqual(lastReplayed);
    expect(decodeSnapshot(flush.keyframe.snapshot)).toMatch(marker('missed2').re);
    const l = marker('livenow');
    ctl.input(l.cmd);
    await back.collectOutput(l.re, 3000, kfIndex + 1);
    for (const r of back.frames.slice(kfIndex + 1).filter(isLogFrame)) {
      expect(seqOf(r) as number).toBeGreaterThan(flush.keyframe.anchor_sequence);
    }
  });

  it('§8.4: two clients reconnecting with the same replay_from receive identical frames', async () => {
    const { sessionId, ctl } = await setup(ctx);
    await produce(ctl, ['shared0']);
    await ctl.settle(200);
    const n = lastLogSeq(ctl);
    await produce(ctl, ['shared1', 'shared2']);
    await ctl.settle(200);
    const m = lastLogSeq(ctl);
    const x = await ctx().attach(sessionId);
    const fx = await joinSession(x, { role: 'observer' }, { replayFrom: n });
    const y = await ctx().attach(sessionId);
    const fy = await joinSession(y, { role: 'observer' }, { replayFrom: n });
    const window = (frames: Received[]): string[] =>
      frames.filter((r) => isLogFrame(r) && (seqOf(r) as number) > n && (seqOf(r) as number) <= m).map(canonical);
    expect(window(fx.frames)).toHaveLength(m - n);
    expect(window(fy.frames)).toEqual(window(fx.frames));
  });

  it('replay_from 0 replays the whole session from its first frame', async () => {
    const { sessionId, ctl } = await setup(ctx);
    await produce(ctl, ['genesis']);
    await ctl.settle(200);
    const m = lastLogSeq(ctl);
    const c = await ctx().attach(sessionId);
    const flush = await joinSession(c, { role: 'observer' }, { replayFrom: 0 });
    const seqs = flush.frames.filter(isLogFrame).map((r) => seqOf(r) as number);
    expect(seqs.slice(0, m)).toEqual(Array.from({ length: m }, (_, i) => i + 1));
  });
});

describe('replay of a history longer than the log keeps in memory (PTYWS_LOG_MEMORY_BYTES 64 KiB)', () => {
  const ctx = useServer({ logMemoryBytes: 64 * 1024 });

  it('replay_from 0 after ~1 MB of output returns every frame, byte for byte (single-node: read back from the transcript files)', async () => {
    // Single-node keeps only the newest 64 KiB of archived output in memory here; the janitor lets
    // the rest go once a second after the archive has it (a partial chunk is written after 1 s).
    const { sessionId, ctl } = await setup(ctx);
    const m = marker('long');
    const from = ctl.mark();
    ctl.input(`head -c 1000000 /dev/zero | tr '\\0' y; echo; ${m.cmd}`);
    await ctl.collectOutput(m.re, 20_000, from);
    await ctl.settle(300);
    await delay(3000);
    const head = lastLogSeq(ctl);
    const live = ctl.frames.filter((r) => isLogFrame(r) && (seqOf(r) as number) <= head);
    const c = await ctx().attach(sessionId);
    const from0 = c.mark();
    // The flush ends at the first Keyframe, and cadence Keyframes are among the replayed frames:
    // wait for the head itself.
    await joinSession(c, { role: 'observer' }, { replayFrom: 0, timeoutMs: 20_000 });
    await c.waitFor((r) => isLogFrame(r) && seqOf(r) === head, 20_000, from0);
    const replayed = c.frames.slice(from0).filter((r) => isLogFrame(r) && (seqOf(r) as number) <= head);
    // Every sequence from the first, the logged (cadence) Keyframes aside: the testkit counts
    // none as log frames. A logged one follows its anchor (a join's own carries the anchor's).
    const cadence = new Set(
      c.frames
        .slice(from0)
        .filter((r) => r.type === 'json' && r.frame.payload?.['kind'] === 'Keyframe')
        .filter((r) => seqOf(r) === Number(jsonOf(r).payload?.['anchor_sequence']) + 1)
        .map((r) => seqOf(r) as number),
    );
    const expected = Array.from({ length: head }, (_, i) => i + 1).filter((seq) => !cadence.has(seq));
    expect(replayed.map((r) => seqOf(r))).toEqual(expected);
    const bytes = replayed.reduce((n, r) => n + (outputBytesOf(r)?.length ?? 0), 0);
    expect(bytes).toBeGreaterThan(1_000_000);
    // Frame for frame what the controller saw live, from its own join on.
    const liveFrom = (seqOf(live[0] as Received) as number) - 1;
    expect(replayed.slice(liveFrom).map(canonical)).toEqual(live.map(canonical));
  }, 60_000);
});

describe('replay out of range (replay_buffer_frames 3, retention 1 s)', () => {
  const ctx = useServer({ replayFrames: 3, replayRetentionS: 1 });

  async function outOfRange(ctl: TestClient): Promise<void> {
    await produce(ctl, ['aged0', 'aged1', 'aged2']);
    await delay(1300);
    await produce(ctl, ['fresh0', 'fresh1', 'fresh2']);
    await ctl.settle(150);
  }

  it('binding scenario 5: replay_from older than retention → REPLAY_OUT_OF_RANGE followed by a Keyframe', async () => {
    const { sessionId, ctl } = await setup(ctx);
    await outOfRange(ctl);
    const c = await ctx().attach(sessionId);
    const from = c.mark();
    const id = c.send('pty.join_session', { role: 'observer' }, { replay_from: 1 });
    const err = await c.waitFor(is.error(), 3000, from);
    expectBindingError(jsonOf(err), 'REPLAY_OUT_OF_RANGE', id);
    const kf = await c.waitFor(is.kind('Keyframe'), 3000, c.frames.indexOf(err) + 1);
    expect(decodeSnapshot(jsonOf(kf).payload?.['snapshot'] as string)).toMatch(marker('fresh2').re);
  });

  it('extension scenario 7: out-of-range rejoin → RoleAssigned, REPLAY_OUT_OF_RANGE, MembershipChanged, Keyframe, then live', async () => {
    const { sessionId, ctl } = await setup(ctx);
    const a = await ctx().attach(sessionId);
    await joinSession(a, { role: 'observer' });
    await a.settle(150);
    const n = lastLogSeq(a);
    a.terminate();
    await outOfRange(ctl);
    const b = await ctx().attach(sessionId);
    const from = b.mark();
    b.send('pty.join_session', { role: 'observer' }, { replay_from: n });
    await b.waitFor(is.kind('Keyframe'), 3000, from);
    const flush = b.frames.slice(from);
    const order = flush.map((r) =>
      is.op('Error')(r) ? 'Error' : ((jsonOf(r).payload?.['kind'] as string) ?? jsonOf(r).op),
    );
    expect(order).toEqual(['RoleAssigned', 'Error', 'MembershipChanged', 'Keyframe']);
    expectBindingError(jsonOf(flush[1] as Received), 'REPLAY_OUT_OF_RANGE');
    expect(b.outputSince(from).length).toBe(0); // no partial replay
    const l = marker('afterlost');
    ctl.input(l.cmd);
    await b.collectOutput(l.re, 3000, from);
  });

  it('interpretation 7: retention is the larger window — frames younger than retention survive past replay_buffer_frames', async () => {
    const { sessionId, ctl } = await setup(ctx);
    await produce(ctl, ['young0']);
    const n = lastLogSeq(ctl);
    await produce(ctl, ['young1', 'young2', 'young3', 'young4', 'young5', 'young6']); // over 3 frames, all younger than 1 s
    const m = lastLogSeq(ctl);
    expect(m - n).toBeGreaterThan(3);
    const c = await ctx().attach(sessionId);
    const flush = await joinSession(c, { role: 'observer' }, { replayFrom: n });
    expect(flush.frames.filter(is.error()).map(describeFrame)).toEqual([]);
    const seqs = flush.frames.filter(isLogFrame).map((r) => seqOf(r) as number);
    expect(seqs.slice(0, m - n)).toEqual(Array.from({ length: m - n }, (_, i) => n + 1 + i));
  });

  it('interpretation 7: the last replay_buffer_frames frames survive however old they are', async () => {
    const { sessionId, ctl } = await setup(ctx);
    await produce(ctl, ['keep0', 'keep1', 'keep2']);
    await ctl.settle(200);
    const m = lastLogSeq(ctl);
    await delay(1300);
    const c = await ctx().attach(sessionId);
    const flush = await joinSession(c, { role: 'observer' }, { replayFrom: m - 3 });
    expect(flush.frames.filter(is.error()).map(describeFrame)).toEqual([]);
    const seqs = flush.frames.filter(isLogFrame).map((r) => seqOf(r) as number);
    expect(seqs.slice(0, 3)).toEqual([m - 2, m - 1, m]);
  });
});
