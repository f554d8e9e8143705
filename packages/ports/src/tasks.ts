import type { ServiceParameters, Task } from '@pty-ws/protocol';

export interface TaskRecord {
  task: Task;
  sessionId: string;
  instanceId: string;
  serviceParameters?: ServiceParameters;
  createdAt: number;
  updatedAt: number;
}

export interface TaskPage {
  tasks: TaskRecord[];
  nextPageToken?: string;
}

/**
 * A2A task persistence. `update` is a compare-and-set on `updatedAt` so two writers cannot
 * silently overwrite each other's transition; it returns undefined when the record moved on.
 */
export interface TaskStore {
  insert(record: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  update(record: TaskRecord, expectedUpdatedAt: number): Promise<TaskRecord | undefined>;
  /** Newest first. `pageToken` is opaque. */
  list(
    filter: { sessionId?: string; instanceId?: string; state?: string; contextId?: string },
    pageSize: number,
    pageToken?: string,
  ): Promise<TaskPage>;
}
