import { BindingError } from '@pty-ws/protocol';

/** Where a page ended: the newest-first order is (createdAt, taskId) descending. */
export interface TaskCursor {
  createdAt: number;
  taskId: string;
}

/**
 * The same keyset token as the memory store (base64url of `[createdAt, taskId]`), so a client
 * paging across a switch of backend, or a test written against one, sees the same tokens.
 */
export function encodePageToken(cursor: TaskCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.taskId]), 'utf8').toString('base64url');
}

/** Throws INVALID_REQUEST for anything this store did not hand out. */
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
