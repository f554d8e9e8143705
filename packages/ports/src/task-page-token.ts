import { BindingError } from '@pty-ws/protocol';

/** Where a page ended: the newest-first order is (createdAt, taskId) descending. */
export interface TaskCursor {
  createdAt: number;
  taskId: string;
}

/**
 * Keyset cursor rather than an offset: a task created while someone pages through the list
 * neither shifts nor repeats entries on later pages. Part of the TaskStore contract, so every
 * implementation hands out and accepts the same tokens (base64url of `[createdAt, taskId]`).
 */
export function encodePageToken(cursor: TaskCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.taskId]), 'utf8').toString('base64url');
}

/** Throws INVALID_REQUEST for anything a task store did not hand out. */
export function decodePageToken(token: string): TaskCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 2 &&
    typeof parsed[0] === 'number' &&
    Number.isSafeInteger(parsed[0]) &&
    typeof parsed[1] === 'string'
  ) {
    return { createdAt: parsed[0], taskId: parsed[1] };
  }
  throw new BindingError('INVALID_REQUEST', 'invalid page token');
}
