import { newId, type Message } from '@pty-ws/protocol';
import type { SessionRegistry, TaskStore } from '@pty-ws/ports';
import { A2aError } from './a2a-error';
import { SESSION_ID_METADATA_KEY, type CallContext, type SendMessageParams } from './a2a-operations';
import { sessionScope, usableSession, visibleTask } from './access';
import type { ContextSessions } from './context-sessions';

export interface MessageSessionDeps {
  tasks: TaskStore;
  registry: SessionRegistry;
  /** Sessions created for contexts of clients that name none; absent: they must name one. */
  contexts?: ContextSessions;
}

/**
 * Which session runs the message (docs/a2a.md, "A2A control plane"): `message.metadata.session_id`,
 * else the request's `metadata.session_id`, else the session of the task the message continues,
 * else the one session the caller is confined to, else, for a principal that may create
 * sessions, the session of the message's context (created on the context's first message; a
 * message without `context_id` starts a new context, returned with its task). The message is
 * returned as the task records it: with the context and, when one was chosen here, the session.
 */
export async function sessionOfMessage(
  params: SendMessageParams,
  ctx: CallContext,
  deps: MessageSessionDeps,
): Promise<{ sessionId: string; message: Message }> {
  let message = params.message;
  let id = sessionIdIn(message.metadata) ?? sessionIdIn(params.metadata);
  if (id === undefined && message.task_id) {
    id = visibleTask(await deps.tasks.get(message.task_id), ctx, message.task_id).sessionId;
  }
  id ??= sessionScope(ctx);
  if (id === undefined) {
    if (!deps.contexts || !mayCreateSessions(ctx)) {
      throw new A2aError(
        'InvalidParams',
        'name the session to run the message in: message.metadata.session_id (see the AgentCard skill shell-task)' +
          (deps.contexts
            ? '; a token with pty:admin may leave it out, and the message runs in a session created for its contextId'
            : ''),
      );
    }
    const contextId = message.context_id ?? newId();
    id = await deps.contexts.sessionFor(ctx, contextId);
    // The task's history shows where it ran, as if the client had named the session: the id to
    // read its screen or wait on its output with (REST `/api/v1/sessions/{id}/…`).
    message = { ...message, context_id: contextId, metadata: { ...message.metadata, [SESSION_ID_METADATA_KEY]: id } };
  }
  usableSession(await deps.registry.get(id), ctx, id);
  return { sessionId: id, message };
}

/** Creating sessions needs pty:admin and a token bound to no session (admin-binding.ts). */
function mayCreateSessions(ctx: CallContext): boolean {
  return ctx.principal.scopes.has('pty:admin') && ctx.principal.sessionId === undefined;
}

function sessionIdIn(metadata: Record<string, unknown> | undefined): string | undefined {
  const v = metadata?.[SESSION_ID_METADATA_KEY] ?? metadata?.['sessionId'];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v === '') {
    throw new A2aError('InvalidParams', "'metadata.session_id' must be a non-empty string");
  }
  return v;
}
