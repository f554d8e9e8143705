/**
 * CPU cost of the terminal mirror (TerminalState) per MB of output, with and without the flood
 * skip (packages/terminal-state/src/skipGate.ts). Not a test: `npm run build && node
 * loadtest/dist/mirror-cost.js [MB]` prints CPU ms per MB (process.cpuUsage, user + system) for
 * `cat`-like text (80-column lines), `yes` output and base64 lines, fed as a PTY delivers them:
 * 64 KiB chunks with CRLF line ends (onlcr), one event-loop turn (a timer) between chunks.
 */
import { TerminalState } from '@pty-ws/terminal-state';

const CHUNK = 64 * 1024;
const MB = Number(process.argv[2] ?? 50);

function textLines(): string {
  const words = ['lorem', 'ipsum', 'dolor', 'sit', 'amet,', 'consectetur', 'adipiscing', 'elit', 'sed', 'do'];
  let out = '';
  for (let i = 0; out.length < CHUNK * 2; i++) {
    let line = '';
    while (line.length < 72) line += words[(i * 7 + line.length) % words.length] + ' ';
    out += line.slice(0, 79) + '\r\n';
  }
  return out;
}

function base64Lines(): string {
  let out = '';
  for (let i = 0; out.length < CHUNK * 2; i++) {
    out += Buffer.from(Array.from({ length: 57 }, (_, k) => (i * 31 + k * 17) & 255)).toString('base64') + '\r\n';
  }
  return out;
}

const streams: Record<string, string> = { cat: textLines(), yes: 'y\r\n'.repeat(CHUNK), base64: base64Lines() };

async function cost(pattern: string, skip: boolean): Promise<{ msPerMb: number; skipped: number }> {
  const source = Buffer.from(pattern);
  const state = new TerminalState({ cols: 80, rows: 24, skipScrolledOut: skip });
  const total = MB * 1024 * 1024;
  const start = process.cpuUsage();
  for (let sent = 0, at = 0; sent < total; sent += CHUNK) {
    if (at + CHUNK > source.length) at = 0;
    state.write(source.subarray(at, at + CHUNK));
    at += CHUNK;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  await state.snapshot();
  const used = process.cpuUsage(start);
  const skipped = state.skippedBytes / total;
  state.dispose();
  return { msPerMb: (used.user + used.system) / 1000 / MB, skipped };
}

async function main(): Promise<void> {
  console.log(`mirror CPU per MB, ${MB} MB per stream, 80x24, 64 KiB chunks`);
  for (const [name, pattern] of Object.entries(streams)) {
    const full = await cost(pattern, false);
    const skip = await cost(pattern, true);
    console.log(
      `${name.padEnd(7)} parse all ${full.msPerMb.toFixed(1).padStart(6)} ms/MB   skip ${skip.msPerMb
        .toFixed(1)
        .padStart(6)} ms/MB   (${(skip.skipped * 100).toFixed(1)} % skipped)`,
    );
  }
}

void main();
