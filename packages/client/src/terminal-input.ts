/**
 * What a controller sends the PTY on its own, shaped here so that pty-client.ts stays the API:
 * input cut into frames under the server's frame limit, and terminal sizes checked against the
 * PTY's range before a Resize is sent.
 */
import { clientFrame, encodeBase64, encodeInputFrame, MAX_DIMENSION, MIN_COLS, MIN_ROWS } from '@pty-ws/protocol';
import type { Connection } from './connection';
import type { PayloadMode } from './options';

/** Input bytes per frame: as JSON (base64, ~4/3) still well under the default 128 KiB frame limit. */
export const INPUT_CHUNK_BYTES = 64 * 1024;

/**
 * Sends `bytes` as PTY input, in order, in frames of at most INPUT_CHUNK_BYTES: a PW1I binary
 * frame each in binary mode, `pty.session_input` otherwise. No bytes still send one (empty) frame.
 */
export function sendInput(conn: Connection, mode: PayloadMode, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length || at === 0; at += INPUT_CHUNK_BYTES) {
    const chunk = bytes.subarray(at, at + INPUT_CHUNK_BYTES);
    if (mode === 'binary') conn.sendBinary(encodeInputFrame(chunk));
    else conn.send(clientFrame('pty.session_input', { data: encodeBase64(chunk) }));
  }
}

/** A size the PTY may take: whole numbers from the 20×5 floor up to MAX_DIMENSION. */
export function isTerminalSize(cols: number, rows: number): boolean {
  return isDimension(cols, MIN_COLS) && isDimension(rows, MIN_ROWS);
}

function isDimension(n: number, min: number): boolean {
  return Number.isInteger(n) && n >= min && n <= MAX_DIMENSION;
}
