/**
 * Token-auth mix: a realistic spread of principals attaching at once. Observe-only tokens get an
 * observer role, control tokens a controller role (up to the cap), session-scoped tokens work on
 * their session only, an observe token asking for controller gets PERMISSION_DENIED, and a bad
 * token is refused at the upgrade (401), a session-scoped token on another session too (403).
 */
import { check } from 'k6';
import { Rate } from 'k6/metrics';
import type { Options } from 'k6/options';
import ws from 'k6/ws';
import { BINARY, attachUrl, createSession, frame, mintToken, parse, wsParams } from './lib.ts';

const asExpected = new Rate('ptyws_auth_as_expected');

export const options: Options = {
  scenarios: {
    mix: { executor: 'constant-arrival-rate', rate: 50, timeUnit: '1s', duration: '30s', preAllocatedVUs: 100 },
  },
  thresholds: {
    ptyws_auth_as_expected: ['rate>0.999'],
    ws_connecting: ['p(95)<250'],
  },
};

interface Data {
  sessionId: string;
  otherSessionId: string;
  observe: string;
  control: string;
  scoped: string;
}

export function setup(): Data {
  const sessionId = createSession(['/bin/cat']);
  const otherSessionId = createSession(['/bin/cat']);
  return {
    sessionId,
    otherSessionId,
    observe: mintToken({ scopes: ['pty:observe'] }),
    control: mintToken({ scopes: ['pty:observe', 'pty:control'] }),
    scoped: mintToken({ scopes: ['pty:observe'], session_id: sessionId }),
  };
}

type Case = {
  name: string;
  token: string;
  session: string;
  role: string;
  expect: 'observer' | 'controller' | 'denied' | 401 | 403;
};

function cases(d: Data): Case[] {
  return [
    { name: 'observe', token: d.observe, session: d.sessionId, role: 'observer', expect: 'observer' },
    { name: 'control', token: d.control, session: d.sessionId, role: 'observer', expect: 'observer' },
    { name: 'scoped', token: d.scoped, session: d.sessionId, role: 'observer', expect: 'observer' },
    { name: 'observe-wants-control', token: d.observe, session: d.sessionId, role: 'controller', expect: 'denied' },
    { name: 'bad-token', token: 'ptyws_not_a_real_token_000000', session: d.sessionId, role: 'observer', expect: 401 },
    { name: 'scoped-elsewhere', token: d.scoped, session: d.otherSessionId, role: 'observer', expect: 403 },
  ];
}

export default function (d: Data): void {
  const all = cases(d);
  const c = all[Math.floor(Math.random() * all.length)] as Case;
  let outcome: string | number = 'none';
  const res = ws.connect(attachUrl(c.session), wsParams(c.token, BINARY), (socket) => {
    socket.on('message', (msg) => {
      const f = parse(msg);
      if (f.op === 'binding_hello') socket.send(frame('pty.join_session', { role: c.role }, { first: true }));
      else if (f.payload?.kind === 'RoleAssigned') outcome = f.payload.role ?? 'none';
      else if (f.op === 'Error' && f.payload?.code === 'PERMISSION_DENIED') outcome = 'denied';
      if (outcome !== 'none') socket.close();
    });
    socket.setTimeout(() => socket.close(), 5000);
  });
  if (res.status !== 101) outcome = res.status;
  const ok = outcome === c.expect;
  asExpected.add(ok, { case: c.name });
  check(outcome, { [`${c.name}: ${String(c.expect)}`]: () => ok });
}
