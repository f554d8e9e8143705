import type { Task, TaskStatus } from '@pty-ws/protocol';
import type { ListTasksResult, SendMessageResult, StreamEvent } from './a2a-operations';

/**
 * How results are spelled on the JSON bindings. `pty-ws`: exactly the pty-ws/v1 wire JSON, so a
 * task read over REST or JSON-RPC equals the one read over the WebSocket. `a2a-v1`: the A2A v1.0
 * ProtoJSON enum spelling (`TASK_STATE_COMPLETED`) and no `final` on status updates, for callers
 * that announce `A2A-Version: 1.x` (the official SDK clients do). Field names stay snake_case in
 * both: ProtoJSON parsers accept them.
 */
export type JsonDialect = 'pty-ws' | 'a2a-v1';

/** The dialect a request's `A2A-Version` header asks for. */
export function dialectOf(a2aVersion: string | undefined): JsonDialect {
  return a2aVersion !== undefined && /^\s*1(\.\d+)?\s*$/.test(a2aVersion) ? 'a2a-v1' : 'pty-ws';
}

const PREFIX = 'TASK_STATE_';

function status(s: TaskStatus): TaskStatus {
  return s.state.startsWith(PREFIX) ? s : ({ ...s, state: `${PREFIX}${s.state}` } as unknown as TaskStatus);
}

export function renderTask(task: Task, dialect: JsonDialect): Task {
  return dialect === 'pty-ws' ? task : { ...task, status: status(task.status) };
}

export function renderEvent(event: StreamEvent, dialect: JsonDialect): StreamEvent {
  if (dialect === 'pty-ws') return event;
  if ('task' in event) return { task: renderTask(event.task, dialect) };
  if ('status_update' in event) {
    const { final: _final, ...rest } = event.status_update;
    return { status_update: { ...rest, status: status(rest.status) } as typeof event.status_update };
  }
  return event;
}

export function renderSendResult(result: SendMessageResult, dialect: JsonDialect): SendMessageResult {
  return 'task' in result ? { task: renderTask(result.task, dialect) } : result;
}

export function renderList(result: ListTasksResult, dialect: JsonDialect): ListTasksResult {
  return dialect === 'pty-ws' ? result : { ...result, tasks: result.tasks.map((t) => renderTask(t, dialect)) };
}
