import { jsonFrame, seqOf, sessionFrameOf, waitUntil, type TestClient } from '@pty-ws/testkit';
import { ending, useOutageEdge } from './support/outage-edge';

/**
 * A join to a session whose frame log was given up, after its close, while the log holds no
 * `Closed` yet (its owner appends it once the log takes writes again) or cannot be read: the
 * reader must learn that its session was cut, never get a goodbye alone. The real owner and edge
 * in one process (support/outage-edge.ts).
 */
const { log, registry, reader, attach, newShell, lastClosedInLog } = useOutageEdge('log-cut-join');

/** A shell whose log was given up: it ended in error, its reader too; the log holds no Closed. */
async function cutShell(): Promise<string> {
  log.noticesLost = false;
  const sessionId = await newShell();
  const typist = await reader(sessionId, 'controller');
  typist.input('echo before_$((6*7))\n');
  await typist.collectOutput(/before_42/, 5000);
  log.down = true;
  typist.input('echo during_the_outage\n');
  await waitUntil(async () => (await registry.get(sessionId))?.state === 'closed', 10_000, 'the session cut');
  await ending(typist);
  expect(await registry.get(sessionId)).toMatchObject({ closedReason: 'error', exitCode: null });
  return sessionId;
}

describe('a join after the close while the log holds no Closed yet: never a goodbye alone', () => {
  afterEach(() => {
    log.down = false;
    log.writesDown = false;
  });

  it("the log takes no writes yet: a Closed(error) from the record at the log's next sequence, Error INTERNAL, the goodbye", async () => {
    const sessionId = await cutShell();
    // The log is back for reads, not yet for writes: its owner cannot append the Closed.
    log.writesDown = true;
    log.down = false;
    const { lastSeq } = await log.bounds(sessionId);
    expect(await lastClosedInLog(sessionId)).toBeUndefined();
    const replaying = await attach(sessionId);
    replaying.send('pty.join_session', { role: 'observer' }, { replay_from: 0 });
    const lastOnly = await attach(sessionId);
    lastOnly.send('pty.join_session', { role: 'observer' });
    for (const c of [replaying, lastOnly]) {
      const { closed, errors, goodbye } = await ending(c);
      expect(closed.map((r) => [seqOf(r), sessionFrameOf(r, 'Closed')])).toEqual([
        [lastSeq + 1, { kind: 'Closed', exit_code: null, reason: 'error' }],
      ]);
      expect(errors.map((r) => jsonFrame(r)?.payload['code'])).toEqual(['INTERNAL']);
      expect(c.frames.indexOf(closed[0]!)).toBeLessThan(c.frames.indexOf(errors[0]!));
      expect(c.frames.indexOf(errors[0]!)).toBeLessThan(c.frames.indexOf(goodbye));
    }
    // The replay came whole before its Closed.
    expect(replaying.frames.map(seqOf).filter((s) => s !== undefined && s > 0 && s <= lastSeq)).toContain(lastSeq);
    // The log takes writes again: its own Closed is the one those readers got, by its number.
    log.writesDown = false;
    const last = await waitUntil(() => lastClosedInLog(sessionId), 10_000, 'Closed in the log');
    expect(last.seq).toBe(lastSeq + 1);
  });

  it('the log cannot be read at the join: Error INTERNAL and close 1011', async () => {
    const sessionId = await cutShell();
    log.writesDown = true;
    log.down = false;
    const late = await attach(sessionId); // the upgrade read the log; the join cannot
    let closedWith: number | undefined;
    void late.closed.then((info) => (closedWith = info.code));
    log.down = true;
    late.send('pty.join_session', { role: 'observer' }, { replay_from: 0 });
    const error = await late.waitFor((r) => jsonFrame(r)?.op === 'Error', 10_000);
    expect(jsonFrame(error)?.payload).toMatchObject({ code: 'INTERNAL' });
    await waitUntil(() => closedWith !== undefined, 10_000, 'the close after the Error');
    expect(closedWith).toBe(1011);
    expect(late.frames.filter((r) => jsonFrame(r)?.op === 'binding_goodbye')).toEqual([]);
    // Back: the log gets its Closed.
    log.down = false;
    log.writesDown = false;
    await waitUntil(() => lastClosedInLog(sessionId), 10_000, 'Closed in the log');
  });

  it('a connection that was there before the cut, told nothing of it, joins after: the same Closed(error), Error, goodbye', async () => {
    log.noticesLost = true; // the edge hears nothing of the cut while the log is away
    const sessionId = await newShell();
    const typist = await reader(sessionId, 'controller');
    const early = await attach(sessionId);
    log.down = true;
    typist.input('echo during_the_outage\n');
    await waitUntil(async () => (await registry.get(sessionId))?.state === 'closed', 10_000, 'the session cut');
    log.writesDown = true;
    log.down = false;
    const { lastSeq } = await log.bounds(sessionId);
    // The owner refuses the join (the session is over): the edge replays the log, as after a close.
    early.send('pty.join_session', { role: 'observer' });
    const expectCut = async (c: TestClient): Promise<void> => {
      const { closed, errors } = await ending(c);
      expect(closed.map((r) => [seqOf(r), sessionFrameOf(r, 'Closed')])).toEqual([
        [lastSeq + 1, { kind: 'Closed', exit_code: null, reason: 'error' }],
      ]);
      expect(errors.map((r) => jsonFrame(r)?.payload['code'])).toEqual(['INTERNAL']);
    };
    await expectCut(early);
    // The log takes writes again: its own Closed ends the reader that was there, the same one.
    log.writesDown = false;
    await expectCut(typist);
  });
});
