/**
 * A replay or catch-up larger than a socket can take is never cut silently (issue 12 item 3). The
 * edge sends replayed and caught-up frames directly, and uWS drops a direct send past its
 * maxBackpressure without a word: a reader that stops reading while ~11 MB of history is replayed
 * to it must receive every byte in order, or be told PTY_OUTPUT_LAGGED and handed a Keyframe —
 * never a hole. (In the cluster bench, 43 of 100 observers of a 49 MB stream never saw its end.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUBPROTOCOL_BINARY } from '@pty-ws/protocol';
import { useServer } from './support';
import { LeanMember, floodSession, numberedLines } from './support-lean-member';

const MARK = 'REPLAY_END_MARK';

describe('replay into a socket that stops reading', () => {
  // The paused reader answers no pings meanwhile.
  const ctx = useServer({ slowConsumerBytes: 64 * 1024, pongTimeoutMs: 120_000 });
  const dir = mkdtempSync(join(tmpdir(), 'ptyws-replay-backlog-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gets every byte of the history in order, or PTY_OUTPUT_LAGGED and a Keyframe: no hole', async () => {
    const body = numberedLines('y');
    const file = join(dir, 'history.txt');
    writeFileSync(file, body);
    const expected = Buffer.concat([body, Buffer.from(`${MARK}\r\n`, 'latin1')]);
    const { url, token } = await floodSession(ctx(), `cat '${file}'`, MARK);
    const members: LeanMember[] = [];
    try {
      const writer = await LeanMember.join(url, token, SUBPROTOCOL_BINARY, 'controller', MARK);
      members.push(writer);
      writer.input('\r');
      await writer.sawMark; // the whole history is in the log now

      const late = await LeanMember.join(url, token, SUBPROTOCOL_BINARY, 'observer', MARK, {
        replayFrom: 0,
        expected,
        pauseAfterJoinMs: 1500,
      });
      members.push(late);
      await late.sawMark;
      expect(late.problems).toEqual([]);
      if (late.lagged) expect(late.afterLag.slice(0, 2)).toEqual(['lagged', 'keyframe']);
      else expect(late.verified).toBe(expected.length);
    } finally {
      for (const m of members) m.terminate();
    }
  }, 120_000);
});
