import { MemoryFrameLog } from '@pty-ws/adapters-memory';
import type { LogBounds, LogCut, LogEntry, PtyExit, PtyProcess, SessionSpec } from '@pty-ws/ports';
import { waitUntil } from '@pty-ws/testkit';
import { sessionRecord, startRuntime } from './runtime-fixture';

/**
 * A session whose frame log cannot be written: its output waits (the PTY is held past the
 * buffer), is logged in order once the log is back, and an outage past the give-up time ends the
 * session with reason `error` — never with its exit code as if it had ended cleanly.
 */

/**
 * A memory log that refuses appends while `down`, as a remote log does during an outage. While
 * `answersLost` it stores an append but its answer is lost, and it answers nothing else: an
 * outage that began just after the log took an entry.
 */
class FlakyLog extends MemoryFrameLog {
  down = false;
  answersLost = false;
  override async append(sessionId: string, entry: LogEntry): Promise<void> {
    if (this.down) throw new Error('the frame log is unreachable');
    await super.append(sessionId, entry);
    if (this.answersLost) throw new Error('no answer from the frame log');
  }
  override bounds(sessionId: string): Promise<LogBounds> {
    return this.answersLost ? Promise.reject(new Error('no answer from the frame log')) : super.bounds(sessionId);
  }
}

/** A PTY the test drives: output, exit, and whether it is being read. */
class ScriptedProcess implements PtyProcess {
  readonly pid = 4343;
  paused = false;
  pauses = 0;
  private data: ((d: Uint8Array) => void) | undefined;
  private exits: Array<(e: PtyExit) => void> = [];
  onData(listener: (d: Uint8Array) => void): void {
    this.data = listener;
  }
  onExit(listener: (e: PtyExit) => void): void {
    this.exits.push(listener);
  }
  print(text: string): void {
    this.data?.(Buffer.from(text));
  }
  exit(exitCode: number): void {
    for (const l of this.exits) l({ exitCode, signal: null });
  }
  write(): void {}
  resize(): void {}
  kill(): void {
    this.exit(129);
  }
  pause(): void {
    this.paused = true;
    this.pauses++;
  }
  resume(): void {
    this.paused = false;
  }
}

const size = { cols: 80, rows: 24 };
const SPEC: SessionSpec = { argv: ['/bin/sh'], cwd: '/tmp', env: {}, size, backend: 'native', sessionClass: 'direct' };

let n = 0;
function start(log: FlakyLog, logOutage: { bufferBytes: number; giveUpMs: number }) {
  const sessionId = `log-cut-${process.pid}-${++n}`;
  const proc = new ScriptedProcess();
  const record = sessionRecord(sessionId, SPEC);
  const { runtime } = startRuntime(record, proc, { log, logOutage });
  const closed = new Promise<{ exitCode: number | null; reason: string }>((resolve) => {
    runtime.onClosed = (exitCode, reason) => resolve({ exitCode, reason });
  });
  const cuts: LogCut[] = [];
  const unsubscribe = log.subscribe(
    sessionId,
    () => {},
    (cut) => cuts.push(cut),
  );
  return { sessionId, proc, runtime, closed, cuts, unsubscribe };
}

const outputText = (entries: LogEntry[]) =>
  entries.map((e) => (e.type === 'output' ? Buffer.from(e.data).toString() : '')).join('');
const lastEntry = async (log: MemoryFrameLog, sessionId: string) => {
  const { lastSeq } = await log.bounds(sessionId);
  return (await log.read(sessionId, lastSeq - 1))[0];
};

describe('a session whose frame log cannot be written', () => {
  it('past the give-up time: reason error with no exit code, readers told, Closed(error) logged once it is back', async () => {
    const log = new FlakyLog();
    const s = start(log, { bufferBytes: 1024 * 1024, giveUpMs: 300 });
    s.proc.print('before the outage\r\n');
    await waitUntil(async () => outputText(await log.read(s.sessionId, 0)).includes('before'), 2000, 'stored output');
    const stored = (await log.bounds(s.sessionId)).lastSeq;
    log.down = true;
    s.proc.print('during the outage\r\n');
    // The program ends cleanly while its output cannot be logged: still not a clean end.
    s.proc.exit(0);
    expect(await s.closed).toEqual({ exitCode: null, reason: 'error' });
    expect(s.cuts.length).toBeGreaterThan(0);
    expect(s.cuts[0]!.lastSeq).toBeGreaterThan(stored);
    log.down = false;
    const closed = await waitUntil(
      async () => {
        const last = await lastEntry(log, s.sessionId);
        return last?.type === 'event' && last.payload['kind'] === 'Closed' ? last : undefined;
      },
      5000,
      'Closed in the log',
    );
    // Right after what the log held: the log stays gapless.
    expect(closed.seq).toBe(stored + 1);
    expect(closed.type === 'event' && closed.payload).toEqual({ kind: 'Closed', exit_code: null, reason: 'error' });
    s.unsubscribe();
  });

  it('past the give-up time after its own Closed was stored unanswered: that Closed stays the only one', async () => {
    const log = new FlakyLog();
    const s = start(log, { bufferBytes: 1024 * 1024, giveUpMs: 300 });
    s.proc.print('before the outage\r\n');
    await waitUntil(async () => outputText(await log.read(s.sessionId, 0)).includes('before'), 2000, 'stored output');
    s.proc.exit(0);
    // Before the Closed just sequenced is appended: the log takes it, and the outage begins.
    log.answersLost = true;
    await s.closed;
    const told = s.cuts.length;
    log.answersLost = false;
    // Back: the owner looks at the log's end, then tells the readers again.
    await waitUntil(() => s.cuts.length > told, 5000, 'the notice once the log is back');
    const entries = await log.read(s.sessionId, 0);
    const closed = entries.filter((e) => e.type === 'event' && e.payload['kind'] === 'Closed');
    expect(closed.map((e) => e.type === 'event' && e.payload)).toEqual([
      { kind: 'Closed', exit_code: 0, reason: 'normal' },
    ]);
    expect(closed[0]).toBe(entries[entries.length - 1]);
    s.unsubscribe();
  });

  it('shorter than the give-up time: everything logged in order once it is back, and a clean exit stays normal', async () => {
    const log = new FlakyLog();
    const s = start(log, { bufferBytes: 1024 * 1024, giveUpMs: 60_000 });
    s.proc.print('line 1\r\n');
    log.down = true;
    for (let i = 2; i <= 50; i++) s.proc.print(`line ${i}\r\n`);
    s.proc.exit(0);
    await new Promise((resolve) => setTimeout(resolve, 200)); // retried meanwhile
    log.down = false;
    expect(await s.closed).toEqual({ exitCode: 0, reason: 'normal' });
    const entries = await log.read(s.sessionId, 0);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    const lines = [...outputText(entries).matchAll(/line (\d+)/g)].map((m) => Number(m[1]));
    expect(lines).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const last = entries[entries.length - 1]!;
    expect(last.type === 'event' && last.payload).toEqual({ kind: 'Closed', exit_code: 0, reason: 'normal' });
    expect(s.cuts).toEqual([]);
    s.unsubscribe();
  });

  it('holds the PTY once the buffer is full, and reads it again once the log took half', async () => {
    const log = new FlakyLog();
    const s = start(log, { bufferBytes: 64 * 1024, giveUpMs: 60_000 });
    log.down = true;
    const chunk = 'x'.repeat(1023) + '\n';
    for (let i = 0; i < 100 && !s.proc.paused; i++) {
      s.proc.print(chunk);
      await new Promise((resolve) => setTimeout(resolve, 3)); // past the coalescing window
    }
    expect(s.proc.paused).toBe(true);
    log.down = false;
    await waitUntil(() => !s.proc.paused, 5000, 'the PTY read again');
    expect(s.proc.pauses).toBe(1);
    await s.runtime.kill();
    expect(await s.closed).toEqual({ exitCode: 129, reason: 'killed' });
    s.unsubscribe();
  });
});
