import { context } from '@opentelemetry/api';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { idOfSubjectToken, systemClock, type Clock, type SessionControl } from '@pty-ws/ports';
import {
  decodeJson,
  encodeJson,
  errorReply,
  isRpcRequest,
  type ControlArgs,
  type ControlMethod,
  type ControlResult,
} from './rpc';
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
  /** When each edge was last heard, and the reaper's timer; default the system's. */
  clock?: Clock;
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
    let req: unknown;
    try {
      req = decodeJson<unknown>(msg.data);
    } catch {
      msg.respond(encodeJson(errorReply(new Error('malformed control request'))));
      return;
    }
    if (!isRpcRequest(req)) {
      const method = (req as { method?: unknown } | null)?.method;
      msg.respond(encodeJson(errorReply(new Error(`unknown control method ${String(method)}`))));
      return;
    }
    if (onlyCreate && req.method !== 'createSession') {
      msg.respond(encodeJson(errorReply(new Error(`placement only creates sessions, not ${req.method}`))));
      return;
    }
    // The edge's trace context comes in the headers: the handling is a child of its request span.
    const { span, ctx } = startHandlerSpan(msg.subject, req.method, msg.headers);
    void context
      .with(ctx, () => Promise.resolve().then(() => serve(control, req)))
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
  const clock = opts.clock ?? systemClock;
  subs.push(
    nc.subscribe(s.edgeHeartbeat(), {
      callback: (err, msg) => {
        if (err) return;
        try {
          const { edgeId } = decodeJson<{ edgeId: string }>(msg.data);
          if (typeof edgeId === 'string') lastSeen.set(edgeId, clock.monotonic());
        } catch {
          /* not a heartbeat */
        }
      },
    }),
  );
  const reaper = clock.setInterval(
    () => {
      const now = clock.monotonic();
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
      reaper.cancel();
      for (const sub of subs) sub.unsubscribe();
      await nc.flush().catch(() => undefined);
    },
  };
}

/** Each control method called with its own parameter types: the table is also the allow-list. */
const SERVED: { [M in ControlMethod]: (c: SessionControl, args: ControlArgs[M]) => Promise<ControlResult<M>> } = {
  createSession: (c, a) => c.createSession(...a),
  killSession: (c, a) => c.killSession(...a),
  join: (c, a) => c.join(...a),
  leave: (c, a) => c.leave(...a),
  setRole: (c, a) => c.setRole(...a),
  resize: (c, a) => c.resize(...a),
  keyframe: (c, a) => c.keyframe(...a),
  screen: (c, a) => c.screen(...a),
  pace: (c, a) => c.pace(...a),
  sendMessage: (c, a) => c.sendMessage(...a),
  createTask: (c, a) => c.createTask(...a),
  runTask: (c, a) => c.runTask(...a),
  getTask: (c, a) => c.getTask(...a),
  listTasks: (c, a) => c.listTasks(...a),
  cancelTask: (c, a) => c.cancelTask(...a),
};

function serve<M extends ControlMethod>(control: SessionControl, req: { method: M; args: ControlArgs[M] }) {
  return SERVED[req.method](control, req.args);
}
