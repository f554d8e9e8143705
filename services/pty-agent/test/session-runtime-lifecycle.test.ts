import type { MemoryFrameLog } from '@pty-ws/adapters-memory';
import type { ManagedPtyProcess, PtyExit } from '@pty-ws/ports';
import type { SessionRuntime } from '@pty-ws/pty-agent';
import { ManualClock } from '@pty-ws/testkit';
import { sessionRecord, startRuntime } from './runtime-fixture';

/**
 * SessionRuntime's one-way lifecycle (running → closing → closed) and its one teardown: a
 * detach (agent restart) and an exit end the same way, except that only an exit logs `Closed`.
 */
class FakeManagedProcess implements ManagedPtyProcess {
  readonly pid = 4242;
  private exitListeners: Array<(e: PtyExit) => void> = [];
  constructor(private readonly exitDuringDetach: boolean) {}
  onData(): void {}
  onExit(listener: (e: PtyExit) => void): void {
    this.exitListeners.push(listener);
  }
  write(): void {}
  resize(): void {}
  kill(): void {
    this.exit(0);
  }
  exit(exitCode: number): void {
    for (const l of this.exitListeners) l({ exitCode, signal: null });
  }
  async detach(): Promise<void> {
    // The client going away while the agent lets go: an exit the runtime must not take as the end.
    if (this.exitDuringDetach) this.exit(1);
  }
  async settled(): Promise<void> {}
}

/** A program that ignores SIGHUP: only the kill's SIGKILL fallback ends it. */
class HangupIgnoringProcess extends FakeManagedProcess {
  readonly signals: string[] = [];
  constructor() {
    super(false);
  }
  override kill(signal = 'SIGHUP'): void {
    this.signals.push(signal);
    if (signal === 'SIGKILL') this.exit(137);
  }
}

let n = 0;
function start(
  proc: FakeManagedProcess,
  clock?: ManualClock,
): { runtime: SessionRuntime; log: MemoryFrameLog; sessionId: string } {
  const sessionId = `lifecycle-${process.pid}-${++n}`;
  const record = sessionRecord(sessionId, {
    argv: ['/bin/true'],
    cwd: '/tmp',
    env: {},
    size: { cols: 80, rows: 24 },
    backend: 'tmux',
    sessionClass: 'managed',
  });
  return { ...startRuntime(record, proc, clock ? { clock } : {}), sessionId };
}

const closedFrames = async (log: MemoryFrameLog, sessionId: string) =>
  (await log.read(sessionId, 0)).filter((e) => e.type === 'event' && e.payload['kind'] === 'Closed');

describe('SessionRuntime lifecycle', () => {
  it('a detach ends in closed without Closed, and releases whoever waited for the end', async () => {
    const { runtime, log, sessionId } = start(new FakeManagedProcess(false));
    const waited = runtime.whenClosed();
    let onClosedCalls = 0;
    runtime.onClosed = () => onClosedCalls++;
    expect(await runtime.detach()).toBe(true);
    await waited;
    expect(runtime.lifecycle).toBe('closed');
    expect(await closedFrames(log, sessionId)).toHaveLength(0);
    expect(onClosedCalls).toBe(0);
    expect(await runtime.detach()).toBe(false); // one way: no second teardown
  });

  it('an exit that races the detach does not log Closed: the detach already left running', async () => {
    const { runtime, log, sessionId } = start(new FakeManagedProcess(true));
    expect(await runtime.detach()).toBe(true);
    expect(await closedFrames(log, sessionId)).toHaveLength(0);
  });

  it('an exit logs Closed once and refuses what only a running session can do', async () => {
    const proc = new FakeManagedProcess(false);
    const { runtime, log, sessionId } = start(proc);
    const closed = new Promise<number | null>((resolve) => (runtime.onClosed = (code) => resolve(code)));
    proc.exit(3);
    proc.exit(4); // a second exit event changes nothing
    expect(await closed).toBe(3);
    await runtime.whenClosed();
    const frames = await closedFrames(log, sessionId);
    expect(frames).toHaveLength(1);
    expect(frames[0]?.type === 'event' && frames[0].payload['exit_code']).toBe(3);
    expect(await runtime.detach()).toBe(false);
    await expect(runtime.resize('c', { cols: 80, rows: 24 })).rejects.toThrow('the session has closed');
  });

  it('sends SIGKILL to a program that ignores SIGHUP once the kill has waited 3 s', async () => {
    const clock = new ManualClock();
    const proc = new HangupIgnoringProcess();
    const { runtime, log, sessionId } = start(proc, clock);
    const killed = runtime.kill();
    expect(proc.signals).toEqual(['SIGHUP']);
    clock.advance(2999);
    expect(proc.signals).toEqual(['SIGHUP']);
    expect(runtime.lifecycle).toBe('running');
    clock.advance(1);
    expect(proc.signals).toEqual(['SIGHUP', 'SIGKILL']);
    await killed;
    expect(runtime.lifecycle).toBe('closed');
    const frames = await closedFrames(log, sessionId);
    expect(frames[0]?.type === 'event' && frames[0].payload['reason']).toBe('killed');
  });
});
