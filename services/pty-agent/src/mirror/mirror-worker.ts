/**
 * The terminal-mirror worker: the headless xterm of every session of this agent, off the main
 * thread. Messages of one port arrive in order, so a snapshot sees exactly the writes and resizes
 * posted before it (TerminalState keeps that order inside xterm's own write queue).
 */
import { parentPort } from 'node:worker_threads';
import { TerminalState } from '@pty-ws/terminal-state';
import type { FromMirror, ToMirror } from './messages';

const port = parentPort;
if (!port) throw new Error('mirror-worker.js runs as a worker thread only');
const terminals = new Map<number, TerminalState>();
const post = (m: FromMirror): void => port.postMessage(m);

/** Parsed bytes and malformed input per terminal, reported once per turn (one message for many chunks). */
const unreported = new Map<number, { bytes: number; malformed: number }>();
function progress(id: number): { bytes: number; malformed: number } {
  let p = unreported.get(id);
  if (p === undefined) {
    if (unreported.size === 0) setImmediate(report);
    p = { bytes: 0, malformed: 0 };
    unreported.set(id, p);
  }
  return p;
}
function report(): void {
  for (const [id, { bytes, malformed }] of unreported) post({ t: 'parsed', id, bytes, malformed });
  unreported.clear();
}

port.on('message', (m: ToMirror) => {
  const term = terminals.get(m.id);
  try {
    switch (m.t) {
      case 'open':
        terminals.set(
          m.id,
          new TerminalState({
            cols: m.cols,
            rows: m.rows,
            onParseError: (e) => post({ t: 'parse-error', id: m.id, message: e.message }),
            onMalformedInput: () => progress(m.id).malformed++,
          }),
        );
        return;
      case 'write': {
        const bytes = m.data.length;
        // Transferred to this thread: xterm may keep the very bytes (no second copy to collect).
        return term?.write(m.data, () => (progress(m.id).bytes += bytes), true);
      }
      case 'resize':
        return term?.resize(m.cols, m.rows);
      case 'snapshot':
        if (!term) return post({ t: 'snapshot-failed', req: m.req, message: 'no such terminal' });
        term.snapshot().then(
          (s) => post({ t: 'snapshot', req: m.req, snapshot: s.snapshot, cols: s.cols, rows: s.rows }),
          (err: Error) => post({ t: 'snapshot-failed', req: m.req, message: err.message }),
        );
        return;
      case 'screen':
        if (!term) return post({ t: 'snapshot-failed', req: m.req, message: 'no such terminal' });
        term.screen(m.format).then(
          (view) => post({ t: 'screen', req: m.req, view }),
          (err: Error) => post({ t: 'snapshot-failed', req: m.req, message: err.message }),
        );
        return;
      case 'close':
        term?.dispose();
        terminals.delete(m.id);
        return;
    }
  } catch (err) {
    // One terminal's failure (xterm refusing a write) must not end the worker of every session.
    post({ t: 'parse-error', id: m.id, message: (err as Error).message });
    if (m.t === 'snapshot' || m.t === 'screen')
      post({ t: 'snapshot-failed', req: m.req, message: (err as Error).message });
  }
});
