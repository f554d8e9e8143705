import { context } from '@opentelemetry/api';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { idOfSubjectToken, type SessionControl } from '@pty-ws/ports';
import { decodeJson, encodeJson, errorReply, type RpcRequest } from './rpc';
import { subjects } from './subjects';
import { endSpan, startHandlerSpan } from './trace-headers';

const EMPTY = new Uint8Array(0);

export interface AgentServerOptions {
  prefix: string;
  agentId: string;
  instanceId: string;
  control: SessionControl;
  /** An edge silent this long is dead: its members' roles are released (issue budget: 15 s). */
  edgeTimeoutMs?: number;
  logger?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export interface AgentServer {
  stop(): Promise<void>;
}

/**
 * Serves one agent's SessionControl over NATS: control requests, session placement (any agent of
 * the instance, through a queue group), PTY input, and edge liveness. Requests are handled
 * concurrently (a blocking SendMessage must not hold up a keystroke); input is applied in the
 * order NATS delivers it, which is arrival order at this agent.
 */
export function serveSessionControl(nc: NatsConnection, opts: AgentServerOptions): AgentServer {
  const s = subjects(opts.prefix);
  const { control } = opts;
  const subs: Subscription[] = [];

  const handle = (msg: Msg, onlyCreate: boolean) => {
    let req: RpcRequest;
    try {
      req = decodeJson<RpcRequest>(msg.data);
    } catch {
      msg.respond(encodeJson(errorReply(new Error('malformed control request'))));
      return;
    }
    if (onlyCreate && req.method !== 'createSession') {
      msg.respond(encodeJson(errorReply(new Error(`placement only creates sessions, not ${req.method}`))));
      return;
    }
    const fn = (control as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[req.method];
    if (typeof fn !== 'function') {
      msg.respond(encodeJson(errorReply(new Error(`unknown control method ${req.method}`))));
      return;
    }
    // The edge's trace context comes in the headers: the handling is a child of its request span.
    const { span, ctx } = startHandlerSpan(msg.subject, req.method, msg.headers);
    void context
      .with(ctx, () => Promise.resolve().then(() => fn.apply(control, req.args)))
      .then(
        (result) => {
          endSpan(span);
          msg.respond(encodeJson({ ok: true, result: result ?? null }));
        },
        (err: unknown) => {
          const reply = errorReply(err);
          endSpan(span, reply.ok ? undefined : reply.error);
          msg.respond(encodeJson(reply));
        },
      );
  };

  subs.push(
    nc.subscribe(s.agentControl(opts.agentId), {
      callback: (err, msg) => {
        if (!err) handle(msg, false);
      },
    }),
  );
  subs.push(
    nc.subscribe(s.placement(opts.instanceId), {
      queue: s.placementQueue(opts.instanceId),
      callback: (err, msg) => {
        if (!err) handle(msg, true);
      },
    }),
  );
  subs.push(
    nc.subscribe(s.agentInputWildcard(opts.agentId), {
      callback: (err, msg) => {
        if (err) return;
        const sessionId = idOfSubjectToken(msg.subject.slice(msg.subject.lastIndexOf('.') + 1));
        const clientId = msg.headers?.get('client-id') ?? '';
        // Applied in arrival order (input() writes synchronously); the reply acknowledges it.
        control.input(sessionId, clientId, msg.data).then(
          () => {
            if (msg.reply) msg.respond(EMPTY);
          },
          (e: unknown) => {
            // The edge checked the role before sending; a refusal here means the role changed in flight.
            opts.logger?.warn(
              { session_id: sessionId, client_id: clientId, err: (e as Error).message },
              'input dropped',
            );
            if (msg.reply) msg.respond(encodeJson(errorReply(e)));
          },
        );
      },
    }),
  );

  // Edge liveness: remember when each edge was last heard; release the members of silent ones.
  const lastSeen = new Map<string, number>();
  const timeoutMs = opts.edgeTimeoutMs ?? 10_000;
  subs.push(
    nc.subscribe(s.edgeHeartbeat(), {
      callback: (err, msg) => {
        if (err) return;
        try {
          const { edgeId } = decodeJson<{ edgeId: string }>(msg.data);
          if (typeof edgeId === 'string') lastSeen.set(edgeId, Date.now());
        } catch {
          /* not a heartbeat */
        }
      },
    }),
  );
  const reaper = setInterval(
    () => {
      const now = Date.now();
      for (const [edgeId, seen] of lastSeen) {
        if (now - seen <= timeoutMs) continue;
        lastSeen.delete(edgeId);
        opts.logger?.info({ edge_id: edgeId }, 'edge silent: releasing its members');
        void control.releaseEdge(edgeId).catch(() => undefined);
      }
    },
    Math.max(100, Math.floor(timeoutMs / 4)),
  );
  reaper.unref();

  return {
    async stop() {
      clearInterval(reaper);
      for (const sub of subs) sub.unsubscribe();
      await nc.flush().catch(() => undefined);
    },
  };
}
