import type { Message } from '@pty-ws/protocol';
import { newId } from '@pty-ws/protocol';

/** A user text message with a fresh `message_id`, optionally continuing a task or context. */
export function textMessage(text: string, ids: { taskId?: string; contextId?: string } = {}): Message {
  const message: Message = { message_id: newId(), role: 'ROLE_USER', parts: [{ text }] };
  if (ids.taskId !== undefined) message.task_id = ids.taskId;
  if (ids.contextId !== undefined) message.context_id = ids.contextId;
  return message;
}

export function toMessage(message: Message | string): Message {
  return typeof message === 'string' ? textMessage(message) : message;
}
