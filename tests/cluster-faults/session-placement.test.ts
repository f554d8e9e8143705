/**
 * Session placement across agents: with PTYWS_MAX_SESSIONS_PER_AGENT=1 and two agents, a
 * creation that lands on the full agent (the placement queue group picks either) is moved to the
 * other one by the edge; only when both are full is the answer 429 RATE_LIMITED.
 */
import { httpRequest, type TimedResponse } from './support/http';
import { shellBody, useFaultCluster } from './support/cluster';

jest.setTimeout(90_000);

const fc = useFaultCluster(
  { maxSessionsPerAgent: 1, maxSessionsPerInstance: 100 },
  { setup: async () => ({ agents: 2 }) },
);

describe('placement when an agent is at its session cap', () => {
  const create = (edge: number): Promise<TimedResponse> =>
    httpRequest(fc().cluster.edges[edge]!.httpUrl, 'POST', '/api/v1/sessions', {
      token: fc().cluster.adminToken,
      json: shellBody(),
    });
  const info = async (id: string) =>
    (
      await httpRequest(fc().cluster.edges[0]!.httpUrl, 'GET', `/api/v1/sessions/${id}`, {
        token: fc().cluster.adminToken,
      })
    ).body as { agent_id: string; state: string };

  it('fills both agents before refusing, round after round', async () => {
    const { cluster } = fc();
    expect(cluster.agents).toHaveLength(2);
    // Without the fallback, each round's second creation is refused half of the time.
    for (let round = 1; round <= 5; round++) {
      const first = await create(round % 2);
      const second = await create((round + 1) % 2);
      expect([round, first.status, second.status, second.text.slice(0, 200)]).toEqual([
        round,
        201,
        201,
        expect.anything(),
      ]);
      const ids = [first, second].map((r) => (r.body as { session_id: string }).session_id);
      const agents = await Promise.all(ids.map(async (id) => (await info(id)).agent_id));
      expect(new Set(agents)).toEqual(new Set(cluster.agents.map((a) => a.agentId)));

      const refused = await create(0);
      expect(refused.status).toBe(429);
      const err = (refused.body as { error: { code: string; message: string } }).error;
      expect(err.code).toBe('RATE_LIMITED');
      expect(err.message).toMatch(/PTYWS_MAX_SESSIONS_PER_AGENT/);

      // Free both agents for the next round: a session is closed once its agent let it go.
      for (const id of ids) {
        const del = await httpRequest(cluster.edges[0]!.httpUrl, 'DELETE', `/api/v1/sessions/${id}`, {
          token: cluster.adminToken,
        });
        expect(del.status).toBe(200);
      }
      const deadline = Date.now() + 10_000;
      for (const id of ids) {
        while ((await info(id)).state !== 'closed') {
          if (Date.now() > deadline) throw new Error(`session ${id} not closed\n${fc().logs()}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    }
  });
});
