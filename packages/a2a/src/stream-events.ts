import type { Task, TaskStatusUpdateEvent } from '@pty-ws/protocol';
import type { LogEntry } from '@pty-ws/ports';
import type { StreamEvent, TaskArtifactUpdateEvent } from './a2a-operations';

/** The payload of a `TaskStatusUpdate` log frame (binding §4.2). */
export interface TaskUpdate {
  task: Task;
  delta: TaskStatusUpdateEvent;
}

/** The TaskStatusUpdate of `taskId` that a log entry carries, if any. */
export function taskUpdateOf(entry: LogEntry, taskId: string): TaskUpdate | undefined {
  if (entry.type !== 'event' || entry.op !== 'TaskStatusUpdate' || entry.taskId !== taskId) return undefined;
  const p = entry.payload as Partial<TaskUpdate>;
  return p.task && p.delta ? { task: p.task, delta: p.delta } : undefined;
}

/** A chunk of a running task's output: the payload of a `TaskArtifactUpdate` log frame. */
export interface ArtifactChunk {
  artifact_update: TaskArtifactUpdateEvent;
}

/** The output chunk of `taskId` that a log entry carries, if any. */
export function artifactChunkOf(entry: LogEntry, taskId: string): ArtifactChunk | undefined {
  if (entry.type !== 'event' || entry.op !== 'TaskArtifactUpdate' || entry.taskId !== taskId) return undefined;
  const p = entry.payload as Partial<ArtifactChunk>;
  return p.artifact_update ? { artifact_update: p.artifact_update } : undefined;
}

/**
 * One status update as A2A stream events: the final update first hands over the task's
 * artifacts (the command output) as artifact updates, then the status update itself — the
 * order A2A clients expect (artifacts before the final status). Used for SSE, gRPC streams and
 * push notifications alike.
 */
export function eventsOfUpdate(update: TaskUpdate): StreamEvent[] {
  const events: StreamEvent[] = [];
  if (update.delta.final) {
    for (const artifact of update.task.artifacts ?? []) {
      events.push({
        artifact_update: {
          task_id: update.task.id,
          context_id: update.task.context_id,
          artifact,
          append: false,
          last_chunk: true,
        },
      });
    }
  }
  events.push({ status_update: update.delta });
  return events;
}

/** The history trimming of GetTask/ListTasks `history_length` (0: none; absent: all). */
export function withHistory(task: Task, historyLength: number | undefined): Task {
  if (historyLength === undefined || !task.history) return task;
  return { ...task, history: historyLength === 0 ? [] : task.history.slice(-historyLength) };
}
