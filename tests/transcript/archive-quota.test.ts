/**
 * The transcript archive's byte quota (PTYWS_TRANSCRIPT_SESSION_BYTES): a session printing far
 * more than its quota keeps only its newest archived chunks, within the quota on disk; the
 * transcript API says where the retained part starts, the drop is counted
 * (`ptyws_transcript_dropped_bytes_total`) and logged (`transcript_trimmed`). Single-node: the
 * server runs as its own process (npm start) with the archive in its own state directory.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStandaloneProcess, waitUntil, type StandaloneProcess } from '@pty-ws/testkit';

jest.setTimeout(120_000);

const QUOTA = 2 * 1024 * 1024;
/** Random bytes as base64 hardly compress: about 11 MB archived without the quota. */
const RANDOM_BYTES = 8_000_000;
/** One chunk (about 1 MiB of output) may be over what a trim keeps. */
const CHUNK_SLACK = 1.5 * 1024 * 1024;

let server: StandaloneProcess;
let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), 'ptyws-quota-'));
  server = await startStandaloneProcess({
    PTYWS_AUDIT_LOG: 'off',
    PTYWS_LOG_LEVEL: 'warn',
    PTYWS_STATE_DIR: stateDir,
    PTYWS_TRANSCRIPT_SESSION_BYTES: String(QUOTA),
  });
});
afterAll(() => {
  server?.kill();
  rmSync(stateDir, { recursive: true, force: true });
});

async function api(p: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.httpUrl}${p}`, {
    ...init,
    headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
  });
}

/** Disk blocks the session's archive files take (the data file is sparse where chunks were dropped). */
function archiveDiskBytes(sessionId: string): number {
  const dir = path.join(stateDir, 'pty-transcripts');
  return readdirSync(dir)
    .filter((name) => name.startsWith(sessionId))
    .reduce((n, name) => n + statSync(path.join(dir, name)).blocks * 512, 0);
}

it('a session writing past its quota keeps only its newest archived bytes, counted and logged', async () => {
  const created = await api('/api/v1/sessions', {
    method: 'POST',
    body: JSON.stringify({
      argv: [
        '/bin/sh',
        '-c',
        `head -c ${RANDOM_BYTES} /dev/urandom | base64 -w 0; echo; echo LAST-LINE; exec sleep 600`,
      ],
    }),
  });
  expect(created.status).toBe(201);
  const { session_id: id } = (await created.json()) as { session_id: string };
  const head = await waitUntil(
    async () => {
      const res = await api(`/api/v1/sessions/${id}/transcript?limit=1`);
      const t = (await res.json()) as { first_seq: number; last_seq: number; archived_through: number };
      // The replay log lets the dropped frames go at its next trim.
      return t.last_seq > 0 && t.archived_through === t.last_seq && t.first_seq > 1 ? t : undefined;
    },
    60_000,
    'the whole output to be archived, and the oldest frames dropped',
    500,
  );
  expect(head.first_seq).toBeLessThan(head.last_seq);
  expect(archiveDiskBytes(id)).toBeLessThan(QUOTA + CHUNK_SLACK);
  const tail = await api(`/api/v1/sessions/${id}/transcript?q=LAST-LINE`);
  expect(((await tail.json()) as { matches: unknown[] }).matches).toHaveLength(1);

  const metrics = await (await api('/metrics')).text();
  const dropped = Number(/^ptyws_transcript_dropped_bytes_total(?:\{[^}]*\})? (\S+)$/m.exec(metrics)?.[1]);
  expect(dropped).toBeGreaterThan(RANDOM_BYTES / 2);
  const logged = (server.stdout() + server.stderr())
    .split('\n')
    .filter((line) => line.includes('"transcript_trimmed"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(logged.length).toBeGreaterThan(0);
  expect(logged[0]).toMatchObject({ session_id: id, session_quota_bytes: QUOTA });
});
