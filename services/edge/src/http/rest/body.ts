import { BindingError } from '@pty-ws/protocol';
import { fieldError } from '../../admin/admin-operations';

/** Checks of REST request bodies: each names the field that is wrong (INVALID_REQUEST). */
export function asObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BindingError('INVALID_REQUEST', 'request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

export function optString(b: Record<string, unknown>, k: string, max = 4096): string | undefined {
  const v = b[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length > max) throw fieldError(k, `a string of at most ${max} characters`);
  return v;
}

export function optInt(b: Record<string, unknown>, k: string, min: number, max: number): number | undefined {
  const v = b[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw fieldError(k, `an integer in ${min}..${max}`);
  return v;
}

export function rejectUnknown(b: Record<string, unknown>, allowed: Set<string>): void {
  for (const k of Object.keys(b))
    if (!allowed.has(k)) throw new BindingError('INVALID_REQUEST', `unknown field '${k}'`);
}
