import {
  SESSION_ID_METADATA_KEY,
  bindOperations,
  type A2aOperations,
  type CallContext,
  type SendMessageParams,
  type StreamEvent,
} from '@pty-ws/a2a';
import type { ControlPlaneAction, EdgeAudit } from './edge-audit';

/** Which control-plane binding a call came through, as recorded in `detail.via`. */
export type A2aBindingName = 'http' | 'grpc';

/**
 * The A2A core with an audit trail: task sends and cancels and push-config changes are recorded
 * once they succeeded, with the principal, the binding and the caller's address. Reads are not
 * recorded (the trail is about who changed what). Everything else passes through unchanged.
 */
export function auditedA2a(ops: A2aOperations, audit: EdgeAudit, via: A2aBindingName): A2aOperations {
  const record = (ctx: CallContext, type: ControlPlaneAction, detail: Record<string, unknown>, sessionId?: string) =>
    audit.admin(ctx.principal, type, { ...detail, via, source_address: ctx.sourceAddress ?? null }, sessionId);
  const sent = (ctx: CallContext, params: SendMessageParams, taskId: string | undefined) =>
    record(ctx, 'task_send', { task_id: taskId ?? null, message_id: params.message.message_id }, sessionOf(params));

  return {
    ...bindOperations(ops),
    async sendMessage(params, ctx) {
      const result = await ops.sendMessage(params, ctx);
      sent(ctx, params, 'task' in result ? result.task.id : undefined);
      return result;
    },
    sendStreamingMessage(params, ctx) {
      return (async function* (): AsyncGenerator<StreamEvent> {
        let first = true;
        for await (const event of ops.sendStreamingMessage(params, ctx)) {
          // The first event is the created task (or a direct message): the send took place.
          if (first) sent(ctx, params, 'task' in event ? event.task.id : undefined);
          first = false;
          yield event;
        }
      })();
    },
    async cancelTask(params, ctx) {
      const task = await ops.cancelTask(params, ctx);
      record(ctx, 'task_cancel', { task_id: task.id, state: task.status.state });
      return task;
    },
    async setTaskPushNotificationConfig(params, ctx) {
      const stored = await ops.setTaskPushNotificationConfig(params, ctx);
      // The URL says where task updates go; the token and credentials are never recorded.
      record(ctx, 'push_config_set', { task_id: stored.task_id, config_id: stored.id ?? null, url: stored.url });
      return stored;
    },
    async deleteTaskPushNotificationConfig(params, ctx) {
      await ops.deleteTaskPushNotificationConfig(params, ctx);
      record(ctx, 'push_config_delete', { task_id: params.task_id, config_id: params.id });
    },
  };
}

/** The session the message names, when it names one (the core resolves the rest). */
function sessionOf(params: SendMessageParams): string | undefined {
  const named = params.message.metadata?.[SESSION_ID_METADATA_KEY] ?? params.metadata?.[SESSION_ID_METADATA_KEY];
  return typeof named === 'string' && named !== '' ? named : undefined;
}
