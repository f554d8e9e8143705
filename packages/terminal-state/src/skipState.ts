/**
 * Whether xterm.js, idle, is in a state from which skipGate.ts's rule holds: the escape-sequence
 * parser in its ground state (safe bytes after an unfinished `ESC [` or inside an OSC/DCS string
 * are parameters, not text), no partial UTF-8 sequence waiting for its continuation bytes, and the
 * cursor inside the scroll margins (LF below or above them does not scroll, so the lines it wrote
 * outside the margins would survive). If an xterm.js upgrade moves one of these internals the
 * answer is "no": nothing is skipped, the output stays exact (a test checks a flood is skipped).
 */
import type { Terminal } from './xterm';

interface Internals {
  _core?: {
    _inputHandler?: {
      _parser?: { currentState?: unknown; _parseStack?: { state?: unknown } };
      _utf8Decoder?: { interim?: unknown };
    };
    buffer?: { y?: unknown; scrollTop?: unknown; scrollBottom?: unknown };
  };
}

const GROUND = 0;

export function canSkipFromHere(term: Terminal): boolean {
  const core = (term as unknown as Internals)._core;
  const parser = core?._inputHandler?._parser;
  if (parser?.currentState !== GROUND || parser._parseStack?.state !== 0) return false;
  const interim = core?._inputHandler?._utf8Decoder?.interim;
  if (!(interim instanceof Uint8Array) || interim[0] !== 0) return false;
  const buffer = core?.buffer;
  const { y, scrollTop, scrollBottom } = buffer ?? {};
  if (typeof y !== 'number' || typeof scrollTop !== 'number' || typeof scrollBottom !== 'number') return false;
  return y >= scrollTop && y <= scrollBottom;
}
