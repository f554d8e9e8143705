import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FrameLog, JoinRequest, LogEntry, SessionControl } from '@pty-ws/ports';
import { settle } from './support';

export interface SessionControlFixture {
  control: SessionControl;
  /** The log the owner appends to: the suite reads a session's output and events in it. */
  log: FrameLog;
  /** An instance the owner serves, with at most one controller and a few observers per session. */
  instanceId: string;
  cleanup(): Promise<void>;
}

/** Long enough for an echo to come back, well inside a pace report's 1 s lifetime. */
const HELD_FOR_MS = 300;

/**
 * The SessionControl contract (ports/src/session-control.ts): what an edge may rely on from a
 * session's owner, whether it calls it in process or over the network. Real PTYs run `/bin/sh`.
 */
export function sessionControlContract(name: string, makeFixture: () => Promise<SessionControlFixture>): void {
  describe(`SessionControl contract: ${name}`, () => {
    let fixture: SessionControlFixture;
    let control: SessionControl;
    const encode = (s: string): Uint8Array => new TextEncoder().encode(s);

    beforeAll(async () => {
      fixture = await makeFixture();
      control = fixture.control;
    });
    afterAll(async () => {
      await fixture.cleanup();
    });

    const create = () => control.createSession({ instanceId: fixture.instanceId, argv: ['/bin/sh'] });
    const join = (sessionId: string, clientId: string, edgeId: string, extra: Partial<JoinRequest> = {}) =>
      control.join(sessionId, {
        clientId,
        edgeId,
        principalId: 'p',
        canControl: true,
        requestedRole: 'controller',
        ...extra,
      });

    /** The session's output text from `afterSeq` on, as the log holds it now. */
    async function outputText(sessionId: string, afterSeq = 0): Promise<string> {
      const entries = await fixture.log.read(sessionId, afterSeq, { limit: 10_000 });
      return entries
        .filter((e): e is Extract<LogEntry, { type: 'output' }> => e.type === 'output')
        .map((e) => Buffer.from(e.data).toString())
        .join('');
    }
    /** Types `echo <word>` computed by the shell, so the output (not the tty's echo) holds `<word>`. */
    async function echoes(sessionId: string, clientId: string, tag: string, n: number): Promise<string> {
      await control.input(sessionId, clientId, encode(`echo ${tag}_$((${n}*2))\n`));
      return `${tag}_${n * 2}`;
    }
    const lastSeq = async (sessionId: string) => (await fixture.log.bounds(sessionId)).lastSeq;

    it('creates a session on the instance and joins a controller with a keyframe at or past the join', async () => {
      const rec = await create();
      expect(rec.instanceId).toBe(fixture.instanceId);
      const joined = await join(rec.sessionId, 'c1', 'edge-1');
      expect(joined.grant).toMatchObject({ role: 'controller', downgraded: false });
      expect(joined.keyframe.anchorSeq).toBeGreaterThanOrEqual(joined.membershipSeq);
      expect(joined.keyframe.cols).toBeGreaterThan(0);
      const observer = await join(rec.sessionId, 'o1', 'edge-1', { requestedRole: 'observer', canControl: false });
      expect(observer.grant.role).toBe('observer');
    });

    it("writes a controller's input to the PTY, and refuses an observer's with PERMISSION_DENIED", async () => {
      const rec = await create();
      await join(rec.sessionId, 'c1', 'edge-1');
      await join(rec.sessionId, 'o1', 'edge-1', { requestedRole: 'observer', canControl: false });
      const word = await echoes(rec.sessionId, 'c1', 'typed', 21);
      await expectOutput(rec.sessionId, word);
      await expect(control.input(rec.sessionId, 'o1', encode('x'))).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
      });
    });

    it('carries binding errors with their code: an unknown task is TASK_NOT_FOUND', async () => {
      const rec = await create();
      await expect(control.getTask(rec.sessionId, 'no-such-task')).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    });

    describe('pace', () => {
      it('holds the output while the only edge with members says its readers are behind, and lets it go on "keeping up"', async () => {
        const rec = await create();
        await join(rec.sessionId, 'c1', 'edge-1');
        expect(await control.pace(rec.sessionId, 'edge-1', true)).toBe(true);
        const from = await lastSeq(rec.sessionId);
        const word = await echoes(rec.sessionId, 'c1', 'paced', 9);
        await settle(HELD_FOR_MS);
        expect(await outputText(rec.sessionId, from)).not.toContain(word);
        expect(await control.pace(rec.sessionId, 'edge-1', false)).toBe(false);
        await expectOutput(rec.sessionId, word, from);
      });

      it('holds only while every edge with members says so', async () => {
        const rec = await create();
        await join(rec.sessionId, 'c1', 'edge-1');
        await join(rec.sessionId, 'o2', 'edge-2', { requestedRole: 'observer', canControl: false });
        expect(await control.pace(rec.sessionId, 'edge-1', true)).toBe(false); // edge-2's readers keep up
        expect(await control.pace(rec.sessionId, 'edge-2', true)).toBe(true);
        expect(await control.pace(rec.sessionId, 'edge-2', false)).toBe(false);
        expect(await control.pace(rec.sessionId, 'edge-1', false)).toBe(false);
      });

      it('does not hold for an edge without members, nor for a session without any', async () => {
        const rec = await create();
        // Nobody reads. (A report is kept for its lifetime: were edge-1 to say this, its members
        // joining next would be held.)
        expect(await control.pace(rec.sessionId, 'edge-0', true)).toBe(false);
        await join(rec.sessionId, 'c1', 'edge-1');
        expect(await control.pace(rec.sessionId, 'edge-9', true)).toBe(false);
        const word = await echoes(rec.sessionId, 'c1', 'flows', 4);
        await expectOutput(rec.sessionId, word);
      });

      it('counts only edges that hold members: once the edge that kept up leaves, the behind one holds', async () => {
        const rec = await create();
        await join(rec.sessionId, 'c1', 'edge-1');
        await join(rec.sessionId, 'o2', 'edge-2', { requestedRole: 'observer', canControl: false });
        expect(await control.pace(rec.sessionId, 'edge-1', true)).toBe(false);
        await control.leave(rec.sessionId, 'o2');
        const from = await lastSeq(rec.sessionId);
        const word = await echoes(rec.sessionId, 'c1', 'left', 6);
        await settle(HELD_FOR_MS);
        expect(await outputText(rec.sessionId, from)).not.toContain(word);
        expect(await control.pace(rec.sessionId, 'edge-1', false)).toBe(false);
        await expectOutput(rec.sessionId, word, from);
      });

      it('answers false, without an error, for a session that has ended', async () => {
        const rec = await create();
        await join(rec.sessionId, 'c1', 'edge-1');
        await control.killSession(rec.sessionId);
        expect(await control.pace(rec.sessionId, 'edge-1', true)).toBe(false);
      });
    });

    /** Waits until the session's output from `afterSeq` on holds `text`. */
    async function expectOutput(sessionId: string, text: string, afterSeq = 0): Promise<void> {
      let seen = '';
      const deadline = Date.now() + 10_000;
      while (!seen.includes(text)) {
        if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(text)} in ${JSON.stringify(seen)}`);
        await settle(20);
        seen = await outputText(sessionId, afterSeq);
      }
    }
  });
}
