/**
 * A2A streams end when their token stops being valid, as WebSockets do: an observe token
 * following a task by SSE (`POST …/tasks/T:subscribe`) and by gRPC `SubscribeToTask` kept
 * receiving the task's output after `DELETE /api/v1/tokens/ID`, and a `ttl_seconds: 2` token's
 * stream after it expired. Each stream now ends with UNAUTHENTICATED while the task still runs.
 */
import type { StreamEvent } from '@pty-ws/a2a';
import { TestContext, http } from '@pty-ws/testkit';
import { clients, grpc, meta, type Clients } from '../grpc/support';
import { openSse, restBase, restOk, textMessage, type SseStream } from '../a2a/support';

jest.setTimeout(60_000);

/** A task that prints a line every 0.2 s for two minutes: its stream stays busy and open. */
const TICKING = 'for i in $(seq 1 600); do echo tick-$i; sleep 0.2; done';

describe('A2A streams and token revocation or expiry', () => {
  let ctx: TestContext;
  let grpcClients: Clients;
  let sessionId = '';
  beforeAll(async () => {
    ctx = await TestContext.startWithGrpc();
    grpcClients = clients(ctx.server.grpcAddresses[0]!);
    sessionId = (await ctx.createSession({ argv: ['/bin/sh'], cols: 80, rows: 24 })).session_id;
  });
  afterAll(async () => {
    grpcClients?.a2a.close();
    await ctx?.dispose();
  });

  /** Starts the ticking task (as admin); its id. */
  async function tickingTask(): Promise<string> {
    const { task } = await restOk<{ task: { id: string } }>(ctx, 'POST', '/message:send', {
      message: textMessage(TICKING, sessionId),
      configuration: { returnImmediately: true },
    });
    return task.id;
  }

  /** An SSE subscription of `token` that has already seen some of the task's output. */
  async function sseFollowing(taskId: string, token: string): Promise<SseStream> {
    const s = await openSse(ctx, 'POST', `${restBase(ctx)}/tasks/${taskId}:subscribe`, undefined, { token });
    expect(s.status).toBe(200);
    await s.waitFor((e) => JSON.stringify(e.data).includes('tick-'));
    return s;
  }

  /** Waits for the stream's last event: an UNAUTHENTICATED error, after which the server ended it. */
  async function endsUnauthenticated(s: SseStream): Promise<void> {
    const error = await s.waitFor((e) => e.event === 'error', 10_000);
    expect(JSON.stringify(error.data)).toMatch(/UNAUTHENTICATED/);
    await s.done;
    expect(s.events.at(-1)).toBe(error);
  }

  it('an SSE subscription ends when its token is revoked', async () => {
    const taskId = await tickingTask();
    const minted = await ctx.mintToken({ scopes: ['pty:observe'], label: 'sse-revoked' });
    const s = await sseFollowing(taskId, minted.token);
    expect((await http(ctx.server, 'DELETE', `/api/v1/tokens/${minted.token_id}`)).status).toBeLessThan(300);
    await endsUnauthenticated(s);
    await http(ctx.server, 'POST', `${restBase(ctx)}/tasks/${taskId}:cancel`, { json: {} });
  });

  it('an SSE subscription ends when its token expires', async () => {
    const taskId = await tickingTask();
    const minted = await ctx.mintToken({ scopes: ['pty:observe'], label: 'sse-expiring', ttl_seconds: 2 });
    const s = await sseFollowing(taskId, minted.token);
    await endsUnauthenticated(s);
    await http(ctx.server, 'POST', `${restBase(ctx)}/tasks/${taskId}:cancel`, { json: {} });
  });

  it('a gRPC SubscribeToTask ends when its token is revoked', async () => {
    const taskId = await tickingTask();
    const minted = await ctx.mintToken({ scopes: ['pty:observe'], label: 'grpc-revoked' });
    const stream = grpcClients.a2a.SubscribeToTask({ id: taskId }, meta(minted.token));
    const events: StreamEvent[] = [];
    const ended = new Promise<grpc.ServiceError | undefined>((resolve) => {
      stream.on('error', (err: grpc.ServiceError) => resolve(err));
      stream.on('end', () => resolve(undefined));
    });
    const ticking = new Promise<void>((resolve) =>
      stream.on('data', (m: StreamEvent) => {
        events.push(m);
        if (JSON.stringify(m).includes('tick-')) resolve();
      }),
    );
    await ticking;
    expect((await http(ctx.server, 'DELETE', `/api/v1/tokens/${minted.token_id}`)).status).toBeLessThan(300);
    const err = await ended;
    expect(err?.code).toBe(grpc.status.UNAUTHENTICATED);
    await http(ctx.server, 'POST', `${restBase(ctx)}/tasks/${taskId}:cancel`, { json: {} });
  });
});
