import { v7 } from 'uuid';

/** UUIDv7: time-ordered ids for frames, sessions, tasks and tokens (binding §2.1, §3). */
export function newId(): string {
  return v7();
}

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export function isUuidV7(value: string): boolean {
  return UUID_V7.test(value);
}

/** RFC 3339 with milliseconds, UTC. */
export function rfc3339(ms: number = Date.now()): string {
  return new Date(ms).toISOString();
}
