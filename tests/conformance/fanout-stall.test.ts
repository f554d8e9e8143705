/**
 * Fan-out that never stalls (issue 12 item 3): 100 binary members of one session while it streams
 * a few MB, some of them not reading. Every reading one gets every byte in order; every paused one,
 * once it reads again, gets PTY_OUTPUT_LAGGED, a Keyframe and then the end of the stream.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUBPROTOCOL_BINARY } from '@pty-ws/protocol';
import { useServer } from './support';
import { LeanMember, floodSession, numberedLines } from './support-lean-member';

const MEMBERS = 100;
const PAUSED = 10;
const MARK = 'FANOUT_END_MARK';
const BLOCK = 256 * 1024;

describe('fan-out under slow consumers', () => {
  // Paused readers answer no pings: the pong timeout must outlast the test.
  const ctx = useServer({
    // Not the 64 KiB default of a test: this one process reads all 90 live sockets (~1 GB in ~3 s,
    // ~400 MB/s, each stream ~4 MB/s) on a 2-core box it shares with the agent, the edge and NATS.
    // In cluster mode it was measured to stall single sockets for > 250 ms (SLOW_GRACE_MS) with
    // more than 64 KiB queued (7 of 90 readers lagged, also with main's mirror, 1 run in 2): a
    // consumer behind by that much for that long is slow by the hub's rule, so that is the test
    // process, not a hub defect. 1 MiB is still far below what a paused reader piles up (11 MB).
    slowConsumerBytes: 1024 * 1024,
    pongTimeoutMs: 120_000,
    maxObservers: 1000,
    // 100 sockets of one principal in a burst is the point here, not an abuse to refuse.
    connBurstPerPrincipal: 1000,
    connRatePerPrincipal: 1000,
  });
  const dir = mkdtempSync(join(tmpdir(), 'ptyws-fanout-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('100 members, 10 paused: readers get every byte in order, paused ones lag, resume and see the end', async () => {
    const body = numberedLines('x');
    const blocks = Math.ceil(body.length / BLOCK);
    const file = join(dir, 'content.txt');
    writeFileSync(file, body);
    const expected = Buffer.concat([body, Buffer.from(`${MARK}\r\n`, 'latin1')]);
    // Paced at ~2.5 MB/s (256 KiB every 0.1 s): 90 readers in this one process then need
    // ~230 MB/s, which a 2-core box shared with the service can read. Unpaced, cat outran
    // what the process could read of 90 sockets, and readers lagged by the hub's rule, which
    // is right for a reader that slow (1 run in 2 to 4 in cluster mode beside other suites).
    const paced = `for i in $(seq 0 ${blocks - 1}); do dd if='${file}' bs=${BLOCK} skip=$i count=1 status=none; sleep 0.1; done`;
    const { url, token } = await floodSession(ctx(), paced, MARK);
    const members: LeanMember[] = [];
    try {
      for (let i = 0; i < MEMBERS; i++) {
        members.push(await LeanMember.join(url, token, SUBPROTOCOL_BINARY, i === 0 ? 'controller' : 'observer', MARK));
      }
      const paused = members.slice(1, 1 + PAUSED);
      const readers = [members[0]!, ...members.slice(1 + PAUSED)];
      for (const m of readers) m.expect(expected);
      for (const m of paused) m.pause();
      members[0]!.input('\r');

      await Promise.all(readers.map((m) => m.sawMark));
      for (const m of readers) {
        expect(m.problems).toEqual([]);
        expect(m.lagged).toBe(false);
        expect(m.verified).toBe(expected.length);
      }

      for (const m of paused) m.resume();
      await Promise.all(paused.map((m) => m.sawMark));
      for (const m of paused) {
        expect(m.problems).toEqual([]);
        // Skipped forward: told so, handed a screen, then live again up to the end.
        expect(m.lagged).toBe(true);
        expect(m.afterLag.slice(0, 2)).toEqual(['lagged', 'keyframe']);
      }
    } finally {
      for (const m of members) m.terminate();
    }
  }, 120_000);
});
