/** k6/typing-latency.ts: each VU types into its own echo session, PW1I → the PW1O holding the key. */
import { attachUrl, mapLimit } from '../../rest';
import type { Scenario } from '../scenario';
import { LoadSocket, delay, isFlushKeyframe, runVus } from '../socket';

const KEYS = 'abcdefghijklmnopqrstuvwxyz';
/** The k6 script's KEY_TIMEOUT_MS: a key not echoed by then is a failed check. */
const KEY_TIMEOUT_MS = 2000;

export const typingLatency: Scenario = async (ctx) => {
  const sessions = await mapLimit(Array.from({ length: ctx.connections }), 10, () =>
    ctx.createSession(['/bin/sh', '-c', 'stty raw -echo; exec cat']),
  );
  await runVus(ctx.connections, ctx.deadline, async (vu) => {
    let sock: LoadSocket;
    try {
      sock = await LoadSocket.open(attachUrl(ctx.ep, sessions[vu % sessions.length] as string), ctx.ep.token);
    } catch (err) {
      ctx.rec.check(false);
      throw err;
    }
    ctx.rec.check(true);
    sock.onFrame = (f) => {
      if (f.op === 'binding_hello') sock.send('pty.join_session', { role: 'controller' });
    };
    const ok = await sock.until(isFlushKeyframe, 10_000);
    ctx.rec.check(ok); // joined
    if (!ok) return sock.close();
    // One connection types for up to 20 s (as a k6 iteration does), then reconnects.
    const until = Math.min(ctx.deadline, performance.now() + 20_000);
    let n = 0;
    while (performance.now() < until && !sock.closed) {
      const key = KEYS[n++ % KEYS.length] as string;
      const sentAt = performance.now();
      const echoed = new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(false), KEY_TIMEOUT_MS);
        sock.onOutput = (payload) => {
          if (payload.toString('latin1').includes(key)) {
            clearTimeout(t);
            resolve(true);
          }
        };
      });
      sock.input(key);
      if (ctx.rec.check(await echoed)) {
        ctx.rec.trend('ptyws_echo_ms', performance.now() - sentAt);
        ctx.rec.sampled('ptyws_echo_ms');
      }
      await delay(100); // ~10 keystrokes a second: a fast typist, not a flood
    }
    sock.close();
  });
};
