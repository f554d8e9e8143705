/**
 * The headless terminal a session keeps for keyframes, preferably in a worker thread.
 *
 * Profile of one `cat` of 50 MB (npm start, --cpu-prof): xterm parsing every byte took ~30 % of the
 * main thread, which also reads the PTY, sequences, fans out and writes the sockets. In a worker
 * the parse runs on another core, behind the stream: Output never waits for it, only a snapshot
 * does (it is answered once the worker has parsed what was written before it).
 */
import { Worker } from 'node:worker_threads';
import { TerminalState, primeKeyframes, type ScreenSnapshot, type ScreenView } from '@pty-ws/terminal-state';
import type { ScreenFormat } from '@pty-ws/ports';
import { builtScript } from '../built-script';
import type { FromMirror, ToMirror } from './messages';
import { SleepingMirror } from './sleeping-mirror';

/** What SessionRuntime needs of its mirror: TerminalState's API, in-thread or in the worker. */
export interface TerminalMirror {
  readonly cols: number;
  readonly rows: number;
  write(data: Uint8Array): void;
  resize(cols: number, rows: number): void;
  snapshot(): Promise<ScreenSnapshot>;
  /** The screen as text (`GET …/screen`), after everything written before. */
  screen(format: ScreenFormat): Promise<ScreenView>;
  dispose(): void;
}

export interface MirrorOptions {
  /** `worker` when the compiled worker script exists; `main` always in-thread. */
  thread: 'main' | 'worker';
  cols: number;
  rows: number;
  onParseError?: (error: Error) => void;
  /** `count` bytes or sequences of output could not be parsed where they stood and were skipped. */
  onMalformedInput?: (count: number) => void;
  /**
   * The worker's mirror fell more than BACKLOG_HIGH bytes behind the writes (true), or caught up
   * to BACKLOG_LOW (false): the caller pauses its source meanwhile, so the queue to the worker
   * stays bounded (a `yes` flood outruns xterm's parse). Never called for an in-thread mirror,
   * whose parse competes with the source on one thread.
   */
  onBacklog?: (behind: boolean) => void;
  /** Lets go of the emulator after this long without output or reads (sleeping-mirror.ts); absent or 0: never. */
  sleepAfterMs?: number;
}

const BACKLOG_HIGH = 4 * 1024 * 1024;
const WORKER_YOUNG_GENERATION_MB = 4;
const BACKLOG_LOW = 1024 * 1024;

/**
 * In the worker when asked and its compiled script exists (always after `npm run build`), else
 * in-thread. In-thread is the default (PTYWS_MIRROR_THREAD=main): under a `yes` flood the worker's
 * own heap added ~150 MB of RSS (xterm's per-line garbage, collected late by its isolate), past the
 * edge's flood bound in tests/security/slow-consumer-rss; the worker is for agents that stream
 * more than they are short of memory.
 */
export function createTerminalMirror(opts: MirrorOptions): TerminalMirror {
  const { sleepAfterMs, ...awake } = opts;
  if (sleepAfterMs === undefined || sleepAfterMs <= 0) return createAwakeMirror(awake);
  return new SleepingMirror(
    (cols, rows) => createAwakeMirror({ ...awake, cols, rows }),
    opts.cols,
    opts.rows,
    sleepAfterMs,
  );
}

function createAwakeMirror(opts: MirrorOptions): TerminalMirror {
  const script = opts.thread === 'worker' ? workerScript() : undefined;
  if (script) return pool(script).open(opts);
  const { onMalformedInput, ...rest } = opts;
  return new TerminalState(onMalformedInput ? { ...rest, onMalformedInput: () => onMalformedInput(1) } : rest);
}

/**
 * Compiles the in-thread keyframe code before the first session needs it: untouched, a session's
 * first cadence keyframe took 15–30 ms and held up the keystroke behind it (the worst echo of a
 * run). The worker compiles its own copy, off the event loop, so it is left as it is.
 */
export function primeMirror(thread: 'main' | 'worker'): Promise<void> {
  return thread === 'main' || !workerScript() ? primeKeyframes() : Promise.resolve();
}

function workerScript(): string | undefined {
  return builtScript('mirror/mirror-worker.js');
}

/** Whether `PTYWS_MIRROR_THREAD=worker` can be honoured: its compiled script exists. */
export function mirrorWorkerBuilt(): boolean {
  return workerScript() !== undefined;
}

const workerFailureListeners = new Set<(err: Error) => void>();

/**
 * Calls `listener` each time the mirror worker dies (an error, or an exit): the agent counts and
 * logs it (`ptyws_helper_failures_total{where="mirror_worker"}`). The next terminal starts a new one.
 */
export function onMirrorWorkerFailure(listener: (err: Error) => void): () => void {
  workerFailureListeners.add(listener);
  return () => workerFailureListeners.delete(listener);
}

let shared: MirrorPool | undefined;
function pool(script: string): MirrorPool {
  if (!shared || shared.dead) shared = new MirrorPool(script);
  return shared;
}

/** One worker for every terminal of the process; requests are answered in posting order. */
class MirrorPool {
  dead = false;
  private readonly worker: Worker;
  private nextId = 0;
  private nextReq = 0;
  /** Snapshot and screen requests awaiting the worker's answer, by request number. */
  private readonly snapshots = new Map<number, { resolve: (m: MirrorAnswer) => void; reject: (e: Error) => void }>();
  private readonly parseErrors = new Map<number, (e: Error) => void>();
  private readonly terminals = new Map<number, RemoteTerminal>();

  constructor(script: string) {
    // A small young generation: a flood makes the parser allocate fast, and V8 would otherwise
    // grow this isolate's new space to tens of MB of RSS on top of the main thread's (the edge's
    // RSS bound under a flood, tests/security/slow-consumer-rss). Old space keeps its default.
    this.worker = new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    this.worker.unref(); // sessions keep the process alive, not their mirror
    this.worker.on('message', (m: FromMirror) => this.onMessage(m));
    const fail = (err: Error): void => {
      if (!this.dead) for (const listener of workerFailureListeners) listener(err);
      this.dead = true;
      for (const p of this.snapshots.values()) p.reject(err);
      this.snapshots.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`terminal mirror worker exited (${code})`)));
  }

  open(opts: MirrorOptions): TerminalMirror {
    const id = ++this.nextId;
    if (opts.onParseError) this.parseErrors.set(id, opts.onParseError);
    this.post({ t: 'open', id, cols: opts.cols, rows: opts.rows });
    const term = new RemoteTerminal(this, id, opts.cols, opts.rows, opts.onBacklog, opts.onMalformedInput);
    this.terminals.set(id, term);
    return term;
  }

  post(m: ToMirror, transfer: ArrayBuffer[] = []): void {
    if (!this.dead) this.worker.postMessage(m, transfer);
  }

  async snapshot(id: number): Promise<ScreenSnapshot> {
    const m = await this.ask((req) => ({ t: 'snapshot', id, req }));
    if (m.t !== 'snapshot') throw new Error('terminal mirror worker answered out of turn');
    return { snapshot: m.snapshot, cols: m.cols, rows: m.rows };
  }

  async screen(id: number, format: ScreenFormat): Promise<ScreenView> {
    const m = await this.ask((req) => ({ t: 'screen', id, req, format }));
    if (m.t !== 'screen') throw new Error('terminal mirror worker answered out of turn');
    return m.view;
  }

  private ask(request: (req: number) => ToMirror): Promise<MirrorAnswer> {
    if (this.dead) return Promise.reject(new Error('terminal mirror worker is gone'));
    const req = ++this.nextReq;
    return new Promise((resolve, reject) => {
      this.snapshots.set(req, { resolve, reject });
      this.post(request(req));
    });
  }

  close(id: number): void {
    this.parseErrors.delete(id);
    this.terminals.delete(id);
    this.post({ t: 'close', id });
    // The last terminal gone: end the worker (the next session starts a new one), so an idle
    // agent holds no thread and nothing outlives the sessions (a test runner waits for it).
    if (this.terminals.size === 0) {
      this.dead = true;
      void this.worker.terminate();
    }
  }

  private onMessage(m: FromMirror): void {
    if (m.t === 'parse-error') return this.parseErrors.get(m.id)?.(new Error(m.message));
    if (m.t === 'parsed') return this.terminals.get(m.id)?.parsed(m.bytes, m.malformed);
    const p = this.snapshots.get(m.req);
    if (!p) return;
    this.snapshots.delete(m.req);
    if (m.t === 'snapshot-failed') p.reject(new Error(m.message));
    else p.resolve(m);
  }
}

/** What the worker answers a snapshot or screen request with. */
type MirrorAnswer = Extract<FromMirror, { t: 'snapshot' | 'screen' }>;

class RemoteTerminal implements TerminalMirror {
  private disposed = false;
  /** Bytes written and not yet parsed by the worker. */
  private backlog = 0;
  private behind = false;

  constructor(
    private readonly pool: MirrorPool,
    private readonly id: number,
    private queuedCols: number,
    private queuedRows: number,
    private readonly onBacklog: (behind: boolean) => void = () => {},
    private readonly onMalformedInput: (count: number) => void = () => {},
  ) {}

  /** The worker reports what it parsed: resume the source once it has nearly caught up. */
  parsed(bytes: number, malformed: number): void {
    if (malformed > 0) this.onMalformedInput(malformed);
    this.backlog -= bytes;
    if (this.behind && this.backlog <= BACKLOG_LOW) {
      this.behind = false;
      this.onBacklog(false);
    }
  }

  get cols(): number {
    return this.queuedCols;
  }

  get rows(): number {
    return this.queuedRows;
  }

  write(data: Uint8Array): void {
    if (this.disposed || data.length === 0) return;
    // One tight copy, handed over: cloning the view would copy its whole backing buffer (a PTY
    // read's is 64 KiB), and the log entry keeps the original.
    const copy = new Uint8Array(data);
    this.pool.post({ t: 'write', id: this.id, data: copy }, [copy.buffer]);
    this.backlog += copy.length;
    if (!this.behind && this.backlog > BACKLOG_HIGH) {
      this.behind = true;
      this.onBacklog(true);
    }
  }

  resize(cols: number, rows: number): void {
    if (this.disposed) return;
    this.queuedCols = cols;
    this.queuedRows = rows;
    this.pool.post({ t: 'resize', id: this.id, cols, rows });
  }

  snapshot(): Promise<ScreenSnapshot> {
    if (this.disposed) return Promise.reject(new Error('terminal mirror is disposed'));
    return this.pool.snapshot(this.id);
  }

  screen(format: ScreenFormat): Promise<ScreenView> {
    if (this.disposed) return Promise.reject(new Error('terminal mirror is disposed'));
    return this.pool.screen(this.id, format);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.pool.close(this.id);
    if (this.behind) this.onBacklog(false);
  }
}
