/**
 * Embedded test servers keep their state to themselves: each gets a temporary state dir and its
 * own audit.jsonl (not the user's `$PTYWS_STATE_DIR/audit.jsonl`, which every test server used
 * to append to), removed when it stops; a test that names its own audit target gets it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { http, startTestServer, testMode } from '../src';

const embedded = testMode() === 'embedded' ? describe : describe.skip;

embedded('startTestServer state', () => {
  it('gives every server its own audit file and state dir, and removes them at stop', async () => {
    const a = await startTestServer();
    const b = await startTestServer();
    try {
      const [ca, cb] = [a.node.config, b.node.config];
      expect(ca.auditLog).toBeDefined();
      expect(ca.auditLog).not.toBe(cb.auditLog);
      expect(ca.stateDir).not.toBe(cb.stateDir);
      expect(path.dirname(ca.auditLog!)).toBe(ca.stateDir);
      // A creation is audited in its own server's file only.
      const created = await http(a, 'POST', '/api/v1/sessions', { json: { argv: ['/bin/sh'], cols: 80, rows: 24 } });
      expect(created.status).toBe(201);
      const id = (created.body as { session_id: string }).session_id;
      const deadline = Date.now() + 5000;
      while (!(existsSync(ca.auditLog!) && readFileSync(ca.auditLog!, 'utf8').includes(id))) {
        if (Date.now() > deadline) throw new Error(`no audit line for ${id} in ${ca.auditLog}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(existsSync(cb.auditLog!) ? readFileSync(cb.auditLog!, 'utf8') : '').not.toContain(id);
    } finally {
      await a.stop();
      await b.stop();
    }
    expect(existsSync(a.node.config.stateDir)).toBe(false);
    expect(existsSync(b.node.config.stateDir)).toBe(false);
  });

  it("honours a test's own audit target", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ptyws-own-audit-'));
    const file = path.join(dir, 'mine.jsonl');
    const s = await startTestServer({ auditLog: file });
    try {
      expect(s.node.config.auditLog).toBe(file);
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
