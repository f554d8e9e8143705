/**
 * A server (npm start, its own process) with one session that printed OUTPUT_BYTES of 100-byte
 * lines and then a marker, fully archived: the transcript tests that bound memory and event-loop
 * time run against it.
 */
import { readFileSync } from 'node:fs';
import { startStandaloneProcess, waitUntil, type StandaloneProcess } from '@pty-ws/testkit';

export const OUTPUT_BYTES = 100_000_000;
/** Each of the session's lines before the marker: 99 of these and a newline. */
export const LINE_CHAR = 'x';

export function rssMb(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

export interface BigTranscript {
  server: StandaloneProcess;
  sessionId: string;
  /** A request to the server with its admin token. */
  api(path: string, init?: RequestInit): Promise<Response>;
}

export async function startBigTranscript(marker: string): Promise<BigTranscript> {
  const server = await startStandaloneProcess({ PTYWS_AUDIT_LOG: 'off', PTYWS_LOG_LEVEL: 'warn' });
  const api = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${server.httpUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
    });
  const line = LINE_CHAR.repeat(99);
  const created = await api('/api/v1/sessions', {
    method: 'POST',
    body: JSON.stringify({
      argv: ['/bin/sh', '-c', `yes ${line} | head -c ${OUTPUT_BYTES}; echo; echo ${marker}; exec sleep 600`],
    }),
  });
  if (created.status !== 201) throw new Error(`session not created: ${created.status} ${await created.text()}`);
  const sessionId = ((await created.json()) as { session_id: string }).session_id;
  // Read from the archive, as a long session is: wait until it holds the last line.
  await waitUntil(
    async () => {
      const res = await api(`/api/v1/sessions/${sessionId}/transcript?limit=1`);
      const head = (await res.json()) as { last_seq: number; archived_through: number };
      if (head.archived_through < head.last_seq) return false;
      const tail = await api(
        `/api/v1/sessions/${sessionId}/transcript?q=${marker}&from_seq=${Math.max(1, head.last_seq - 5)}`,
      );
      return ((await tail.json()) as { matches: unknown[] }).matches.length > 0;
    },
    240_000,
    'the 100 MB output to be archived',
    1000,
  );
  return { server, sessionId, api };
}

/**
 * Samples the server's RSS on its own timer and probes /healthz in a loop until `work` settles:
 * the probes wait while the event loop is busy, the sampler does not.
 */
export async function whileWatching<T>(
  server: StandaloneProcess,
  work: () => Promise<T>,
): Promise<{ result: T; baselineMb: number; peakMb: number; slowestHealthzMs: number }> {
  const pid = server.child.pid!;
  const baselineMb = rssMb(pid);
  let peakMb = baselineMb;
  let slowestHealthzMs = 0;
  let done = false;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 20);
  const prober = (async () => {
    while (!done) {
      const t0 = Date.now();
      const res = await fetch(`${server.httpUrl}/healthz`);
      await res.text();
      slowestHealthzMs = Math.max(slowestHealthzMs, Date.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const result = await work();
    done = true;
    await prober;
    return { result, baselineMb, peakMb, slowestHealthzMs };
  } finally {
    done = true;
    clearInterval(sampler);
  }
}
