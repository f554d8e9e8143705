import { delay, joinSession, logSequences, describeFrame } from '@pty-ws/testkit';
import { marker, shell, useServer } from './support';
describe('dbg', () => {
  const ctx = useServer({ replayFrames: 3, replayRetentionS: 1 });
  it('old frames', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s);
    await joinSession(ctl, { role: 'controller' });
    const m1 = marker('keep'); ctl.input(m1.cmd); await ctl.collectOutput(m1.re); await ctl.settle(200);
    const seqs = logSequences(ctl.frames); const m = seqs[seqs.length-1] as number;
    console.log('ctl', ctl.describe());
    await delay(1300);
    const c = await ctx().attach(s);
    const flush = await joinSession(c, { role: 'observer' }, { replayFrom: m - 3 });
    console.log('m', m, 'flush', c.describe());
  });
  it('session id field', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const c = await ctx().attach(s);
    await joinSession(c, { role: 'controller' });
    const from = c.mark();
    c.send('pty.session_input', { data: Buffer.from('echo hi_$((1+1))\n').toString('base64'), session_id: s });
    await c.settle(500);
    console.log(c.describe(from));
  });
});
