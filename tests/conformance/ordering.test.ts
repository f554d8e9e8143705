/** Ordering across clients (binding §8.1, scenario 12; docs/spec/README.md interpretations 1 and 6). */
import { SUBPROTOCOL_BINARY, isUuidV7 } from '@pty-ws/protocol';
import {
  gaps,
  is,
  isLogFrame,
  joinSession,
  logSequences,
  outputBytes,
  seqOf,
  sequenceViolations,
  type Received,
  type TestClient,
} from '@pty-ws/testkit';
import { jsonOf, marker, shell, useServer, userMessage } from './support';

/** What a log frame says, independent of JSON/binary encoding. */
function content(r: Received): string {
  const bytes = outputBytes(r);
  if (bytes) return `out:${bytes.toString('base64')}`;
  if (r.type !== 'json') return 'other';
  return JSON.stringify(r.frame.payload);
}

describe('ordering', () => {
  const ctx = useServer({ maxControllers: 4 });

  it('binding scenario 12: sequence is strictly monotonic and shared across multi-client attach', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const c1 = await ctx().attach(s);
    await joinSession(c1, { role: 'controller', client_label: 'c1' });
    const c2 = await ctx().attach(s, { protocols: [SUBPROTOCOL_BINARY] });
    await joinSession(c2, { role: 'controller', client_label: 'c2' });
    const o = await ctx().attach(s);
    await joinSession(o, { role: 'observer', client_label: 'o' });

    // Both controllers type at once, with a resize in the middle.
    const markers: string[] = [];
    for (let i = 0; i < 8; i++) {
      const a = marker(`ca${i}`);
      const b = marker(`cb${i}`);
      markers.push(a.text, b.text);
      c1.input(a.cmd);
      c2.inputBinary(b.cmd);
      if (i === 4) c1.send('pty.session_resize', { cols: 100, rows: 30 });
    }
    for (const c of [c1, c2, o]) {
      await c.collectOutput(new RegExp(markers.map((t) => `(?=[\\s\\S]*${t})`).join('')), 5000);
    }
    // Then paced typing, so there are many separate frames (a burst is coalesced into few).
    for (let i = 0; i < 6; i++) {
      const a = marker(`pa${i}`);
      const b = marker(`pb${i}`);
      const from = o.mark();
      c1.input(a.cmd);
      await o.collectOutput(a.re, 3000, from);
      c2.inputBinary(b.cmd);
      await o.collectOutput(b.re, 3000, from);
    }
    for (const c of [c1, c2, o]) await c.settle(200);

    const all: TestClient[] = [c1, c2, o];
    for (const c of all) {
      // Per connection: log frames strictly increasing, replies carry the last log sequence.
      expect(sequenceViolations(c.frames)).toEqual([]);
      // No task traffic here, so every joined connection sees every log frame: no gaps.
      const joinedAt = c.frames.findIndex(is.kind('MembershipChanged'));
      expect(gaps(logSequences(c.frames.slice(joinedAt)))).toEqual([]);
    }
    // One counter: a sequence number means the same frame on every connection.
    const byClient = all.map((c) => new Map(c.frames.filter(isLogFrame).map((r) => [seqOf(r) as number, content(r)])));
    const common = [...(byClient[2] as Map<number, string>).keys()];
    expect(common.length).toBeGreaterThan(10);
    for (const seq of common) {
      expect(byClient[0]?.get(seq)).toBe(byClient[2]?.get(seq));
      expect(byClient[1]?.get(seq)).toBe(byClient[2]?.get(seq));
    }
    // Exactly one Resize among them, seen by everyone at the same number.
    const resizes = o.frames.filter(is.kind('Resize'));
    expect(resizes).toHaveLength(1);
    // Envelope (§3): UUIDv7 ids, RFC 3339 ts; server-initiated frames get fresh ids.
    for (const c of all) {
      const json = c.frames.filter((r) => r.type === 'json').map(jsonOf);
      for (const f of json) {
        expect(isUuidV7(f.id)).toBe(true);
        expect(Number.isNaN(Date.parse(f.ts))).toBe(false);
      }
      const logged = json.filter((f) => f.op === 'pty.session_frame').map((f) => f.id);
      expect(new Set(logged).size).toBe(logged.length);
    }
  });

  it('interpretation 1: replies, errors and pongs carry the last log sequence written to the connection (never decreasing)', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s);
    await joinSession(ctl, { role: 'controller' });
    const c = await ctx().attach(s);
    // Before any log frame reached it, a reply carries 0.
    const pong0 = await c.request('ping', { client_ts: new Date().toISOString() });
    expect(pong0.sequence).toBe(0);
    await joinSession(c, { role: 'observer' });
    for (let i = 0; i < 5; i++) {
      const m = marker(`mix${i}`);
      ctl.input(m.cmd);
      c.send('ping', { client_ts: new Date().toISOString() });
      c.send('NoSuchOp', {});
      c.send('SendMessage', { message: userMessage(`echo t${i}`) });
      await c.collectOutput(m.re);
    }
    await c.settle(300);
    expect(sequenceViolations(c.frames)).toEqual([]);
    const replies = c.frames.filter((r) => is.op('pong')(r) || is.op('Error')(r) || is.op('SendMessage.Response')(r));
    expect(replies.length).toBeGreaterThanOrEqual(15);
  });
});
