/**
 * Token-auth mix: a realistic spread of principals attaching at once. Observe-only tokens get an
 * observer role, control tokens a controller role when they ask for it, session-scoped tokens work
 * on their session only, an observe token asking for controller gets PERMISSION_DENIED, and a bad
 * token is refused at the upgrade (401), a session-scoped token on another session too (403).
 *
 * RATE (default 50) attaches a second, each a random case of seven: about RATE/7 a second are bad
 * tokens from this one address, so above RATE=70 lift PTYWS_AUTH_FAILURE_RATE / _BURST (their 429
 * is not the expected 401), and keep the controllers at once under PTYWS_MAX_CONTROLLERS (a
 * controller past the cap is downgraded to observer). loadtest/README.md, k6 section.
 */
import { Rate } from 'k6/metrics';
import type { Options } from 'k6/options';
import ws from 'k6/ws';
import {
  BINARY,
  attachUrl,
  cleanUp,
  createSession,
  frame,
  mintToken,
  parse,
  sampled,
  verify,
  wsParams,
  type MintedToken,
} from './lib.ts';

const asExpected = new Rate('ptyws_auth_as_expected');
const RATE = Number(__ENV['RATE'] ?? 50);

export const options: Options = {
  scenarios: {
    mix: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: '30s',
      preAllocatedVUs: Math.max(100, 2 * RATE),
    },
  },
  thresholds: {
    ptyws_auth_as_expected: ['rate>0.999'],
    ws_connecting: ['p(95)<250'],
    'ptyws_samples{of:ptyws_auth_as_expected}': ['count>0'],
    'ptyws_samples{of:ws_connecting}': ['count>0'],
  },
};

interface Data {
  sessionId: string;
  otherSessionId: string;
  observe: MintedToken;
  control: MintedToken;
  scoped: MintedToken;
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

export function teardown(d: Data): void {
  cleanUp([d.sessionId, d.otherSessionId], [d.observe.id, d.control.id, d.scoped.id]);
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
    { name: 'observe', token: d.observe.token, session: d.sessionId, role: 'observer', expect: 'observer' },
    { name: 'control', token: d.control.token, session: d.sessionId, role: 'observer', expect: 'observer' },
    { name: 'controller', token: d.control.token, session: d.sessionId, role: 'controller', expect: 'controller' },
    { name: 'scoped', token: d.scoped.token, session: d.sessionId, role: 'observer', expect: 'observer' },
    {
      name: 'observe-wants-control',
      token: d.observe.token,
      session: d.sessionId,
      role: 'controller',
      expect: 'denied',
    },
    { name: 'bad-token', token: 'ptyws_not_a_real_token_000000', session: d.sessionId, role: 'observer', expect: 401 },
    { name: 'scoped-elsewhere', token: d.scoped.token, session: d.otherSessionId, role: 'observer', expect: 403 },
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
  if (res.status === 101) sampled('ws_connecting');
  else outcome = res.status;
  const ok = outcome === c.expect;
  asExpected.add(ok, { case: c.name });
  sampled('ptyws_auth_as_expected');
  verify(`${c.name}: ${String(c.expect)}`, ok);
}
