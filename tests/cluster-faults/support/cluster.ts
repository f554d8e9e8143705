/** Jest glue for the fault tests: one real cluster per file, clients pinned to a chosen edge. */
import type { Config } from '@pty-ws/config';
import {
  TestClient,
  gaps,
  logSequences,
  startCluster,
  testDefaults,
  type ClusterHandle,
  type ClusterOptions,
  type EdgeHandle,
  type Received,
} from '@pty-ws/testkit';
import { httpRequest } from './http';

export interface FaultCluster {
  readonly cluster: ClusterHandle;
  /** Opens a client on this edge (admin token) and waits for binding_hello. */
  attach(edge: EdgeHandle, sessionId: string): Promise<TestClient>;
  /** Creates an interactive /bin/sh session through this edge's REST API. */
  createShell(edge?: EdgeHandle): Promise<string>;
  /** The agent's and edges' recent output, for failure messages. */
  logs(): string;
}

export interface FaultClusterHooks {
  /** Runs first in beforeAll (e.g. starts an own NATS or Postgres); returns the cluster options. */
  setup?: () => Promise<ClusterOptions>;
  /** Runs last in afterAll, after the cluster stopped, even when setup or the start failed. */
  teardown?: () => Promise<void>;
}

/**
 * Starts a cluster in beforeAll and stops it, with every client, in afterAll, whatever the tests
 * did to its processes.
 */
export function useFaultCluster(overrides: Partial<Config> = {}, hooks: FaultClusterHooks = {}): () => FaultCluster {
  let cluster: ClusterHandle | undefined;
  const clients = new Set<TestClient>();
  beforeAll(async () => {
    const options = (await hooks.setup?.()) ?? {};
    cluster = await startCluster({ ...testDefaults(), logLevel: 'info', ...overrides }, options);
  }, 60_000);
  afterAll(async () => {
    try {
      for (const c of clients) c.terminate();
      await cluster?.stop();
    } finally {
      await hooks.teardown?.();
    }
  }, 30_000);

  const fc: FaultCluster = {
    get cluster(): ClusterHandle {
      if (!cluster) throw new Error('cluster not started');
      return cluster;
    },
    async attach(edge, sessionId) {
      const c = await TestClient.connect(attachUrl(edge, fc.cluster.instanceId, sessionId), {
        token: fc.cluster.adminToken,
      });
      clients.add(c);
      await c.hello();
      return c;
    },
    async createShell(edge) {
      const via = edge ?? fc.cluster.edges[0]!;
      const res = await httpRequest(via.httpUrl, 'POST', '/api/v1/sessions', {
        token: fc.cluster.adminToken,
        json: shellBody(),
      });
      const id = (res.body as { session_id?: unknown } | undefined)?.session_id;
      if (res.status !== 201 || typeof id !== 'string') {
        throw new Error(`POST /api/v1/sessions → ${res.status} ${res.text.slice(0, 300)}`);
      }
      return id;
    },
    logs() {
      const all = [...fc.cluster.agents, ...fc.cluster.edges];
      return all.map((s) => `--- ${s.label}\n${s.output().slice(-4000)}`).join('\n');
    },
  };
  return () => fc;
}

export function attachUrl(edge: EdgeHandle, instanceId: string, sessionId: string): string {
  return `${edge.wsUrl}/agents/${encodeURIComponent(instanceId)}/sessions/${encodeURIComponent(sessionId)}/attach`;
}

export function shellBody(): Record<string, unknown> {
  return {
    argv: ['/bin/sh'],
    env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    cols: 80,
    rows: 24,
  };
}

/** A command whose output (not its echo) contains `<tag>_<n>`: seeing it proves the command ran. */
export function marker(tag: string): { cmd: string; re: RegExp; text: string } {
  const a = 40 + (tag.length % 7);
  return { cmd: `echo ${tag}_$((${a}+2))\n`, re: new RegExp(`${tag}_${a + 2}`), text: `${tag}_${a + 2}` };
}

/** Log sequences received from frame index `from` on, with a readable account of any gap or repeat. */
export function sequenceReport(frames: readonly Received[], from = 0): { seqs: number[]; problems: string[] } {
  const seqs = logSequences(frames.slice(from));
  const problems = gaps(seqs).map((g) => `gap or repeat: ${g}`);
  return { seqs, problems };
}

export function since(t0: number): number {
  return Date.now() - t0;
}
