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

type Parse = (data: string | Uint8Array, promiseResult?: boolean) => unknown;

interface InputHandlerInternals {
  parse?: Parse;
  _parser?: { reset?: () => void };
}

export function guardParser(term: Terminal, onError: (error: Error) => void): void {
  const inputHandler = (term as unknown as { _core?: { _inputHandler?: InputHandlerInternals } })._core?._inputHandler;
  const parse = inputHandler?.parse;
  if (inputHandler === undefined || typeof parse !== 'function') {
    throw new Error(
      '@pty-ws/terminal-state: xterm.js internal "_core._inputHandler.parse" not found (xterm upgraded?)',
    );
  }
  inputHandler.parse = (data, promiseResult) => {
    try {
      return parse.call(inputHandler, data, promiseResult);
    } catch (err) {
      inputHandler._parser?.reset?.();
      onError(err instanceof Error ? err : new Error(String(err)));
      return undefined;
    }
  };
}
