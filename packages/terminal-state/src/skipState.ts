/**
 * Whether xterm.js, idle, is in a state from which skipGate.ts's rule holds: the escape-sequence
 * parser in its ground state (safe bytes after an unfinished `ESC [` or inside an OSC/DCS string
 * are parameters, not text), no partial UTF-8 sequence waiting for its continuation bytes, and the
 * cursor inside the scroll margins (LF below or above them does not scroll, so the lines it wrote
 * outside the margins would survive). If an xterm.js upgrade moves one of these internals the
 * answer is "no": nothing is skipped, the output stays exact (a test checks a flood is skipped, and
 * test/xterm-private.test.ts that every member read here exists).
 */
import type { Terminal } from './xterm';
import { skipProbe } from './xterm-private';

const GROUND = 0;

export function canSkipFromHere(term: Terminal): boolean {
  const p = skipProbe(term);
  if (p.parserState !== GROUND || p.parseStackState !== 0) return false;
  if (!(p.utf8Interim instanceof Uint8Array) || p.utf8Interim[0] !== 0) return false;
  const { cursorY: y, scrollTop, scrollBottom } = p;
  if (typeof y !== 'number' || typeof scrollTop !== 'number' || typeof scrollBottom !== 'number') return false;
  return y >= scrollTop && y <= scrollBottom;
}
