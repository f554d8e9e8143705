/**
 * Single-node mode: a restarted node's registry has forgotten the sessions of the run before,
 * so it prunes their transcript files at start once they are older than the closed-session TTL
 * (PTYWS_CLOSED_SESSION_TTL_S); younger ones stay until a later start.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TestContext, http, joinSession, testMode } from '@pty-ws/testkit';

const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', PS1: '$ ' };
const TTL_S = 3600;
const single = testMode() === 'embedded' ? describe : describe.skip;

single('transcript files of an earlier run', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ptyws-prune-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs a node on `dir` with one session that printed `text`, closed; returns the session id. */
  async function runOnce(text: string): Promise<string> {
    const ctx = await TestContext.start({ transcriptDir: dir, closedSessionTtlS: TTL_S, replayFrames: 5 });
    try {
      const { session_id } = await ctx.createSession({ argv: ['/bin/sh'], env: ENV, cols: 80, rows: 24 });
      const c = await ctx.attach(session_id);
      await joinSession(c, { role: 'controller' });
      c.input(`echo ${text}_$((1+1)); exit\n`);
      await c.collectOutput(new RegExp(`${text}_2`), 5000);
      // The session closed: its last frames reach the archive.
      for (let i = 0; i < 100; i++) {
        const info = await http(ctx.server, 'GET', `/api/v1/sessions/${session_id}`);
        if ((info.body as { state?: string }).state === 'closed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      return session_id;
    } finally {
      await ctx.dispose();
    }
  }

  const filesOf = (id: string) => readdirSync(dir).filter((f) => f.startsWith(id));

  it('removes those past the TTL at start and keeps younger ones', async () => {
    const old = await runOnce('old_run');
    const recent = await runOnce('recent_run');
    expect(filesOf(old).sort()).toEqual([`${old}.chunks`, `${old}.idx`]);
    expect(filesOf(recent)).toHaveLength(2);
    // The first run's files were last written two TTLs ago.
    const past = (Date.now() - 2 * TTL_S * 1000) / 1000;
    for (const f of filesOf(old)) utimesSync(path.join(dir, f), past, past);

    const third = await runOnce('third_run');
    expect(filesOf(old)).toEqual([]);
    expect(existsSync(path.join(dir, `${recent}.chunks`))).toBe(true);
    expect(filesOf(third)).toHaveLength(2);
  });
});
