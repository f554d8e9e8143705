import { ManualClock } from '@pty-ws/testkit';
import { PtyWsError, RECONNECT_DEFAULTS, type ReconnectOptions } from '../src';
import type { Clock } from '../src/clock';
import { ReconnectSupervisor, type SupervisorHost } from '../src/reconnect-supervisor';
import { TRANSITIONS, type Phase } from '../src/reconnect-table';

/** A host that records what the supervisor asks of it; `restore` is answered by the test. */
function fakeHost(): SupervisorHost & {
  log: string[];
  restores: Array<{ replayFrom: number; resolve: () => void; reject: (e: unknown) => void }>;
  seq: number;
  over: boolean;
} {
  const host = {
    log: [] as string[],
    restores: [] as Array<{ replayFrom: number; resolve: () => void; reject: (e: unknown) => void }>,
    seq: 0,
    over: false,
    sessionOver: () => host.over,
    lastSequence: () => host.seq,
    restore: (replayFrom: number) =>
      new Promise<void>((resolve, reject) => {
        host.log.push(`restore:${replayFrom}`);
        host.restores.push({ replayFrom, resolve, reject });
      }),
    dropAttempt: () => host.log.push('dropAttempt'),
    teardown: (error: PtyWsError | undefined) => host.log.push(`teardown:${error?.code ?? '-'}`),
    stateChanged: (state: string) => host.log.push(`state:${state}`),
    emit: (type: string, event: unknown) => {
      const e = event as { attempt?: number; delayMs?: number; code?: string; willReconnect?: boolean };
      if (type === 'reconnecting') host.log.push(`reconnecting:${e.attempt}@${e.delayMs}`);
      else if (type === 'disconnect') host.log.push(`disconnect:${e.willReconnect}`);
      else host.log.push(`${type}:${e.code}`);
    },
  };
  return host;
}

const options = (o: ReconnectOptions = {}): Required<ReconnectOptions> => ({
  ...RECONNECT_DEFAULTS,
  initialDelayMs: 100,
  jitter: 0,
  ...o,
});
const flush = (): Promise<void> => new Promise((r) => setImmediate(r));
const retryable = new PtyWsError('CONNECT_FAILED', 'refused', { retryable: true });

describe('reconnect transition table', () => {
  const phases = Object.keys(TRANSITIONS) as Phase[];

  it('ends every live phase on halt, and leaves idle and closed only by connect', () => {
    for (const phase of phases) {
      const events = Object.keys(TRANSITIONS[phase]);
      if (phase === 'idle' || phase === 'closed') expect([phase, events]).toEqual([phase, ['connect']]);
      else expect([phase, TRANSITIONS[phase].halt?.to]).toEqual([phase, 'closed']);
    }
  });

  it('tears down on every way into closed, and reports an error on the ones that carry one', () => {
    for (const phase of phases) {
      for (const [event, t] of Object.entries(TRANSITIONS[phase])) {
        if (t.to !== 'closed') continue;
        expect([phase, event, t.before?.includes('teardown')]).toEqual([phase, event, true]);
        const reports = ['lostFailed', 'attemptFatal', 'exhausted'].includes(event);
        expect([phase, event, t.before?.includes('reportError') ?? false]).toEqual([phase, event, reports]);
      }
    }
  });
});

describe('ReconnectSupervisor on a manual clock', () => {
  let clock: ManualClock;
  let host: ReturnType<typeof fakeHost>;
  const open = (o?: ReconnectOptions | null): ReconnectSupervisor => {
    const s = new ReconnectSupervisor(host, clock satisfies Clock, o === null ? undefined : options(o));
    s.connect();
    s.connected();
    host.log.length = 0;
    return s;
  };
  beforeEach(() => {
    clock = new ManualClock();
    host = fakeHost();
  });

  it('waits the backoff on the clock, then restores from the sequence held at the drop', async () => {
    const s = open();
    host.seq = 41;
    s.lost({ code: 1006, reason: '' });
    host.seq = 99; // frames of a failed attempt do not move the replay point
    expect(host.log).toEqual(['disconnect:true', 'state:reconnecting', 'reconnecting:1@100']);
    clock.advance(99);
    expect(host.restores).toHaveLength(0);
    clock.advance(1);
    expect(host.log.at(-1)).toBe('restore:41');
    host.restores[0]!.resolve();
    await flush();
    expect(s.phase).toBe('open');
    expect(host.log.at(-1)).toBe('state:open');
  });

  it('backs off exponentially and gives up after maxAttempts with RECONNECT_FAILED', async () => {
    const s = open({ maxAttempts: 3, factor: 2 });
    s.lost({ code: 1006, reason: '' });
    for (const delay of [100, 200, 400]) {
      clock.advance(delay);
      host.restores.at(-1)!.reject(retryable);
      await flush();
    }
    expect(host.log).toEqual([
      'disconnect:true',
      'state:reconnecting',
      'reconnecting:1@100',
      'restore:0',
      'dropAttempt',
      'reconnecting:2@200',
      'restore:0',
      'dropAttempt',
      'reconnecting:3@400',
      'restore:0',
      'error:RECONNECT_FAILED',
      'teardown:RECONNECT_FAILED',
      'state:closed',
    ]);
    expect(s.phase).toBe('closed');
    expect(clock.pendingCount).toBe(0);
  });

  it('stops at a non-retryable failure, and prefers the fatal code of the close it saw', async () => {
    const s = open();
    s.lost({ code: 1006, reason: '' });
    clock.advance(100);
    const fatal = new PtyWsError('UNAUTHENTICATED', 'token expired', { retryable: false });
    s.lost({ code: 4401, reason: 'token expired', fatal }); // the attempt's socket, while attempting: ignored
    expect(s.phase).toBe('attempting');
    host.restores[0]!.reject(retryable);
    await flush();
    expect(host.log.slice(-3)).toEqual(['error:UNAUTHENTICATED', 'teardown:UNAUTHENTICATED', 'state:closed']);
  });

  it('halt during the pause cancels it and tears down quietly', () => {
    const s = open();
    s.lost({ code: 1006, reason: '' });
    expect(clock.pendingCount).toBe(1);
    s.halt('close');
    expect(clock.pendingCount).toBe(0);
    expect(host.log.slice(-2)).toEqual(['teardown:-', 'state:closed']);
    clock.advance(10_000);
    expect(host.restores).toHaveLength(0);
  });

  it('ends without reconnecting when the session is over, reconnect is off, or the client is leaving', () => {
    host.over = true;
    open().lost({ code: 1000, reason: '' });
    expect(host.log).toEqual(['disconnect:false', 'teardown:-', 'state:closed']);

    host = fakeHost();
    open(null).lost({ code: 1006, reason: '' });
    expect(host.log).toEqual([
      'disconnect:false',
      'error:CONNECTION_CLOSED',
      'teardown:CONNECTION_CLOSED',
      'state:closed',
    ]);

    host = fakeHost();
    const s = open();
    s.leaving();
    s.lost({ code: 1000, reason: 'left' });
    expect(host.log).toEqual(['disconnect:false', 'teardown:-', 'state:closed']);
    expect(clock.pendingCount).toBe(0);
  });

  it('ignores the outcome of an attempt the client gave up on before it finished', async () => {
    const s = open();
    s.lost({ code: 1006, reason: '' });
    clock.advance(100);
    s.halt('close');
    s.connect();
    s.connected();
    host.restores[0]!.resolve();
    await flush();
    expect(s.phase).toBe('open');
    expect(host.log.filter((l) => l.startsWith('state:'))).toEqual([
      'state:reconnecting',
      'state:closed',
      'state:connecting',
      'state:open',
    ]);
  });
});
