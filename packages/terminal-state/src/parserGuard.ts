/**
 * Contains exceptions thrown while xterm.js parses output.
 *
 * xterm.js parses in a timer. An exception there (xterm.js 6 has at least one, see eraseAboveFix.ts)
 * escapes as an uncaught exception — which kills the whole Node process hosting every session —
 * and leaves xterm's write queue stalled forever, so no later write, resize or snapshot would ever
 * complete. Any PTY program could trigger that by printing the right bytes. We wrap the core's
 * parse step: the rest of the failing chunk is lost, the escape-sequence parser is put back to its
 * ground state (it would otherwise still be inside the failed sequence and swallow the next
 * bytes), the error is reported, and parsing goes on with the next chunk.
 */
import type { Terminal } from './xterm';
import { inputHandlerHooks } from './xterm-private';

export function guardParser(term: Terminal, onError: (error: Error) => void): void {
  const hooks = inputHandlerHooks(term);
  hooks.wrapParse((parse) => (data, promiseResult) => {
    try {
      return parse(data, promiseResult);
    } catch (err) {
      hooks.resetParser();
      onError(err instanceof Error ? err : new Error(String(err)));
      return undefined;
    }
  });
}
