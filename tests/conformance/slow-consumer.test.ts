/**
 * A slow observer is skipped forward: `PTY_OUTPUT_LAGGED`, and the next frame MUST be a Keyframe
 * (pty-extensions/v1 server frames). Its socket stays up and it is live again afterwards.
 */
import { delay, frameAfterLag, is, joinSession, sequenceViolations } from '@pty-ws/testkit';
import { shell, useServer } from './support';

describe('slow consumers', () => {
  // A paused reader answers no pings either: the pong timeout must outlast the flood (which takes
  // longer than the test default of 5 s through JetStream on a busy machine), or it is reaped.
  const ctx = useServer({ slowConsumerBytes: 64 * 1024, pongTimeoutMs: 60_000 });

  it('an observer that falls behind gets PTY_OUTPUT_LAGGED, then a Keyframe, then live frames', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s);
    await joinSession(ctl, { role: 'controller' });
    const slow = await ctx().attach(s);
    await joinSession(slow, { role: 'observer' });
    const from = slow.mark();

    slow.pauseReading(); // the kernel buffers fill, then the server's backlog grows
    // More than the paused socket's kernel buffers (several MB) and the hard backlog bound (4 MiB)
    // hold together, so the skip comes from that bound and not only from the 250 ms grace, which
    // a hold for the controller restarts. With 6 MB the observer was sometimes never skipped and
    // simply got everything (cluster mode: one CI run, and 1 of 10 runs alone).
    ctl.input('yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c 16000000; echo FLOOD_$((5+5))\n');
    await ctl.collectOutput(/FLOOD_10/, 20000);
    slow.resumeReading();

    const next = await frameAfterLag(slow, from, 10000, 3000);
    expect(is.kind('Keyframe')(next)).toBe(true);

    const live = slow.mark();
    ctl.input('echo AFTER_$((7+7))\n');
    await slow.collectOutput(/AFTER_14/, 5000, live);
    await delay(100);
    expect(slow.isOpen).toBe(true);
    expect(sequenceViolations(slow.frames)).toEqual([]);
  }, 45000);
});
