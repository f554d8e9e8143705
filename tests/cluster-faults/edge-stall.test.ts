/**
 * An edge stalls (SIGSTOP for 300 ms, then SIGCONT: a GC pause or a starved CPU looks the same)
 * right after forwarding a role request. When it wakes, the log entry of the change and the
 * owner's reply are read together: the client must still get every frame, its own promotion's
 * MembershipChanged included.
 */
import { is, joinSession, sessionFrameOf } from '@pty-ws/testkit';
import { sequenceReport, useFaultCluster } from './support/cluster';

jest.setTimeout(60_000);

const fc = useFaultCluster({ maxControllers: 1 });

describe('edge stalled during a role change', () => {
  it('the promoted client receives the MembershipChanged of its promotion (3 rounds)', async () => {
    const { cluster } = fc();
    const [edgeA, edgeB] = cluster.edges as [(typeof cluster.edges)[0], (typeof cluster.edges)[0]];
    const pid = edgeB.child.pid!;
    const outcomes: string[] = [];
    for (let round = 0; round < 3; round++) {
      const sessionId = await fc().createShell(edgeA);
      const holder = await fc().attach(edgeA, sessionId);
      await joinSession(holder, { role: 'controller' });
      const waiter = await fc().attach(edgeB, sessionId);
      const joined = await joinSession(waiter, { role: 'observer' });
      holder.send('pty.release_role', {});
      await waiter.waitFor((r) => sessionFrameOf(r, 'MembershipChanged')?.controllers.length === 0, 3000, joined.from);
      await waiter.settle(200, 1000);

      const from = waiter.mark();
      waiter.send('pty.request_role', { role: 'controller' });
      // Long enough for edge B to forward the request, far shorter than the owner's answer.
      await new Promise((r) => setTimeout(r, 2));
      process.kill(pid, 'SIGSTOP');
      try {
        await new Promise((r) => setTimeout(r, 300));
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      await waiter.waitFor(is.kind('Keyframe'), 5000, from);
      await waiter.settle(300, 2000);
      const promoted = waiter.frames
        .slice(from)
        .some((r) => sessionFrameOf(r, 'MembershipChanged')?.controllers.some((c) => c.client_id === joined.clientId));
      outcomes.push(`${promoted ? 'ok' : 'MembershipChanged missing'}: ${waiter.describe(from)}`);
      expect(sequenceReport(waiter.frames).problems).toEqual([]);
      holder.terminate();
      waiter.terminate();
    }
    expect(outcomes.filter((o) => !o.startsWith('ok'))).toEqual([]);
  });
});
