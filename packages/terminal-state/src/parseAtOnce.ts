/**
 * xterm.js parses a write on a later timer (`setTimeout(0)`: at least 1 ms in Node) unless its
 * write buffer is empty and the write follows user input, which it parses at once (WriteBuffer
 * `_didUserInput`). A snapshot or a resize waits for everything queued before it, so each waited a
 * millisecond or more for that timer, and a cadence keyframe held the output sequenced behind it as
 * long: the worst 1 % of keystroke echoes on a typing session. Marking the next write as following
 * user input takes xterm's own synchronous path (`_innerWrite`, with its time budget), and only
 * when nothing is waiting for the timer, so order is kept. If an xterm.js upgrade drops the flag,
 * writes simply stay asynchronous.
 */
import type { Terminal } from './xterm';
import { writeBufferFlag } from './xterm-private';

/** `term.write(data, callback)`, parsed now if xterm's write buffer is empty. */
export function writeParsedAtOnce(term: Terminal, data: Uint8Array, callback: () => void): void {
  const userInput = writeBufferFlag(term);
  userInput?.set(true);
  term.write(data, callback);
  // Not consumed when xterm's buffer was not empty: later writes must not inherit it.
  userInput?.set(false);
}
