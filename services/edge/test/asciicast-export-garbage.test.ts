/**
 * What an asciicast export allocates while it streams: nothing V8 puts in its large-object space
 * (strings or arrays past ~128 KiB), which only a full collection frees. An export's garbage then
 * dies in the nursery at the pace it is made; large objects instead piled up until the next full
 * collection, and how far depended on the client's pace and the machine's load (hundreds of MB of
 * RSS for one 100 MB recording). tests/transcript/asciicast-memory measures the RSS itself.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { MemoryFrameLog } from '@pty-ws/adapters-memory';
import type { SessionRecord } from '@pty-ws/ports';
import { parseTranscriptQuery } from '../src/transcript/query';
import { TranscriptSource } from '../src/transcript/source';
import { exportAsciicast } from '../src/transcript/transcript-view';

const SESSION = 'big-session';
/** Frames as large as a `yes` flood makes them (~160 KiB), 24 MiB in all. */
const FRAME_BYTES = 160 * 1024;
const FRAMES = 150;

const largeObjectBytes = (): number =>
  getHeapSpaceStatistics().find((s) => s.space_name === 'large_object_space')!.space_used_size;

it('an export of large frames to a client that takes its time makes no large heap objects', async () => {
  const log = new MemoryFrameLog();
  const line = Buffer.from(`${'x'.repeat(60)}é\x1b[0m${'y'.repeat(30)}\r\n`, 'utf8');
  for (let seq = 1; seq <= FRAMES; seq++) {
    const data = new Uint8Array(FRAME_BYTES);
    for (let at = 0; at < FRAME_BYTES; at += line.length) data.set(line.subarray(0, FRAME_BYTES - at), at);
    await log.append(SESSION, {
      type: 'output',
      seq,
      id: `f${seq}`,
      ts: 1_760_000_000_000 + seq,
      stream: 'stdout',
      data,
    });
  }
  const record = { sessionId: SESSION, createdAt: 1_760_000_000_000, spec: { size: { cols: 80, rows: 24 } } };
  const baseline = largeObjectBytes();
  let peak = baseline;
  let bytes = 0;
  await exportAsciicast(
    new TranscriptSource(SESSION, log, undefined),
    record as unknown as SessionRecord,
    parseTranscriptQuery('format=asciicast'),
    { from: 1, to: FRAMES },
    async (part: string | Uint8Array) => {
      peak = Math.max(peak, largeObjectBytes());
      bytes += Buffer.byteLength(part);
      // The socket drains a little later: the export waits, as it does for a slow client.
      await new Promise((resolve) => setImmediate(resolve));
      return true;
    },
  );
  expect(bytes).toBeGreaterThan(FRAMES * FRAME_BYTES);
  process.stdout.write(`large-object space: +${peak - baseline} bytes\n`);
  expect(peak - baseline).toBeLessThan(1024 * 1024);
});
