import type { A2aOperations, CallContext } from '@pty-ws/a2a';
import type { EdgeAudit } from './edge-audit';

/** Which control-plane binding a call came through, as recorded in `detail.via`. */
export type A2aBindingName = 'http' | 'grpc';

/**
 * The A2A core with an audit trail: every call's context carries the recorder, and the core
 * reports each change it made (task sends and cancels, push-config changes — inline configs of
 * a SendMessage too) with the session it concerns, once it happened. This side adds who, through
 * which binding and from where. Reads are not recorded (the trail is about who changed what).
 */
export function auditedA2a(ops: A2aOperations, audit: EdgeAudit, via: A2aBindingName): A2aOperations {
  const withAudit = (ctx: CallContext): CallContext => ({
    ...ctx,
    audit: (e) =>
      audit.admin(ctx.principal, e.type, { ...e.detail, via, source_address: ctx.sourceAddress ?? null }, e.sessionId),
  });
  return {
    sendMessage: (p, c) => ops.sendMessage(p, withAudit(c)),
    sendStreamingMessage: (p, c) => ops.sendStreamingMessage(p, withAudit(c)),
    getTask: (p, c) => ops.getTask(p, c),
    listTasks: (p, c) => ops.listTasks(p, c),
    cancelTask: (p, c) => ops.cancelTask(p, withAudit(c)),
    subscribeToTask: (p, c) => ops.subscribeToTask(p, c),
    setTaskPushNotificationConfig: (p, c) => ops.setTaskPushNotificationConfig(p, withAudit(c)),
    getTaskPushNotificationConfig: (p, c) => ops.getTaskPushNotificationConfig(p, c),
    listTaskPushNotificationConfigs: (p, c) => ops.listTaskPushNotificationConfigs(p, c),
    deleteTaskPushNotificationConfig: (p, c) => ops.deleteTaskPushNotificationConfig(p, withAudit(c)),
  };
}
