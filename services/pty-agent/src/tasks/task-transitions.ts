import {
  BindingError,
  FINAL_UPDATE_STATES,
  newId,
  rfc3339,
  type Message,
  type Task,
  type TaskState,
  type TaskStatusUpdateEvent,
} from '@pty-ws/protocol';
import type { TaskStore } from '@pty-ws/ports';
import { logTraceId } from '@pty-ws/telemetry';
import type { Sequencer } from '../session/sequencer';

/** The final artifact: the output kept, and when some was left out, how much and where it is. */
export interface ArtifactOutput {
  id: string;
  text: string;
  truncated: boolean;
  omitted_bytes?: number;
  /** The session log's sequence range the command printed in (transcript API `from_seq`/`to_seq`). */
  transcript?: { from_seq: number; to_seq: number };
}

/** What a transition adds to the task beside its new state. */
export interface TransitionExtra {
  statusText?: string;
  artifact?: ArtifactOutput;
  metadata?: Record<string, unknown>;
  /** A message the task received (an answer to its request for input). */
  history?: Message;
}

/** Where a task's transitions go: its session's id and log. */
export interface TransitionTarget {
  sessionId: string;
  sequencer: Sequencer;
}

export interface TaskTransitionsOptions {
  store: TaskStore;
  logger?: { info(obj: object, msg: string): void };
  onUpdate?: (update: { task: Task; delta: TaskStatusUpdateEvent }) => void;
}

function metadataOf(artifact: ArtifactOutput): Record<string, unknown> {
  const { id: _id, text: _text, ...metadata } = artifact;
  return metadata;
}

/**
 * Task state changes: each is written to the TaskStore (compare-and-set), then appended to the
 * session's frame log as a TaskStatusUpdate carrying the service parameters of the connection
 * that created the task (binding §9), then told to `onUpdate` and logged with its trace id.
 */
export class TaskTransitions {
  constructor(private readonly opts: TaskTransitionsOptions) {}

  async apply(target: TransitionTarget, taskId: string, state: TaskState, extra: TransitionExtra = {}): Promise<Task> {
    const { store } = this.opts;
    for (;;) {
      const rec = await store.get(taskId);
      if (!rec) throw new BindingError('TASK_NOT_FOUND', `task ${taskId} vanished`);
      // A final state is final: a command finishing after CancelTask must not overwrite CANCELED.
      if (FINAL_UPDATE_STATES.has(rec.task.status.state) && rec.task.status.state !== 'INPUT_REQUIRED') return rec.task;
      const timestamp = rfc3339();
      const status: Task['status'] = extra.statusText
        ? {
            state,
            timestamp,
            message: {
              message_id: newId(),
              role: 'ROLE_AGENT',
              task_id: taskId,
              context_id: rec.task.context_id,
              parts: [{ text: extra.statusText }],
            },
          }
        : { state, timestamp };
      const task: Task = { ...rec.task, status };
      if (extra.history) task.history = [...(rec.task.history ?? []), extra.history];
      if (extra.artifact) {
        task.artifacts = [
          {
            artifact_id: extra.artifact.id,
            name: 'output',
            parts: [{ text: extra.artifact.text }],
            metadata: { ...metadataOf(extra.artifact) },
          },
        ];
      }
      if (extra.metadata) task.metadata = { ...(task.metadata ?? {}), ...extra.metadata };
      const updated = await store.update({ ...rec, task, updatedAt: Date.now() }, rec.updatedAt);
      if (!updated) continue; // lost a compare-and-set race: re-read and re-decide
      const final = FINAL_UPDATE_STATES.has(state);
      const delta: TaskStatusUpdateEvent = {
        task_id: taskId,
        context_id: updated.task.context_id,
        status: updated.task.status,
        final,
      };
      target.sequencer.event(
        'TaskStatusUpdate',
        { task: updated.task, delta },
        { taskId, ...(rec.serviceParameters ? { serviceParameters: rec.serviceParameters } : {}) },
      );
      await target.sequencer.flushed();
      this.opts.onUpdate?.({ task: updated.task, delta });
      const traceId = logTraceId(rec.serviceParameters);
      this.opts.logger?.info(
        { session_id: target.sessionId, task_id: taskId, state, ...(traceId ? { trace_id: traceId } : {}) },
        'task status',
      );
      return updated.task;
    }
  }
}
