/**
 * k6/token-mix.ts: observe, control, session-scoped and bad tokens attaching at once, each with
 * its expected outcome (role, PERMISSION_DENIED, 401, 403).
 */
import { attachUrl } from '../../rest';
import type { Scenario } from '../scenario';
import { LoadSocket, UpgradeRefused, runArrivals } from '../socket';

interface Case {
  name: string;
  token: string;
  session: string;
  role: string;
  expect: string | number;
}

export const tokenMix: Scenario = async (ctx) => {
  const sessionId = await ctx.createSession(['/bin/cat']);
  const otherSessionId = await ctx.createSession(['/bin/cat']);
  const observe = await ctx.mintToken({ scopes: ['pty:observe'] });
  const control = await ctx.mintToken({ scopes: ['pty:observe', 'pty:control'] });
  const scoped = await ctx.mintToken({ scopes: ['pty:observe'], session_id: sessionId });
  const cases: Case[] = [
    { name: 'observe', token: observe, session: sessionId, role: 'observer', expect: 'observer' },
    { name: 'control', token: control, session: sessionId, role: 'observer', expect: 'observer' },
    { name: 'controller', token: control, session: sessionId, role: 'controller', expect: 'controller' },
    { name: 'scoped', token: scoped, session: sessionId, role: 'observer', expect: 'observer' },
    { name: 'observe-wants-control', token: observe, session: sessionId, role: 'controller', expect: 'denied' },
    { name: 'bad-token', token: 'ptyws_not_a_real_token_000000', session: sessionId, role: 'observer', expect: 401 },
    { name: 'scoped-elsewhere', token: scoped, session: otherSessionId, role: 'observer', expect: 403 },
  ];
  // The k6 script's RATE (constant-arrival-rate); --connections caps VUs in flight.
  await runArrivals(ctx.rate, ctx.connections, ctx.deadline, async () => {
    const c = cases[Math.floor(Math.random() * cases.length)] as Case;
    let outcome: string | number = 'none';
    const started = performance.now();
    try {
      const sock = await LoadSocket.open(attachUrl(ctx.ep, c.session), c.token);
      ctx.rec.trend('ws_connecting', sock.connectMs);
      ctx.rec.sampled('ws_connecting');
      sock.onFrame = (f) => {
        if (f.op === 'binding_hello') sock.send('pty.join_session', { role: c.role });
        else if (f.payload?.kind === 'RoleAssigned') outcome = f.payload.role ?? 'none';
        else if (f.op === 'Error' && f.payload?.code === 'PERMISSION_DENIED') outcome = 'denied';
      };
      await sock.until(() => outcome !== 'none', 5000);
      sock.close();
    } catch (err) {
      if (!(err instanceof UpgradeRefused)) throw err;
      ctx.rec.trend('ws_connecting', performance.now() - started);
      outcome = err.status;
    }
    ctx.rec.rate('ptyws_auth_as_expected', outcome === c.expect);
    ctx.rec.sampled('ptyws_auth_as_expected');
  });
};
