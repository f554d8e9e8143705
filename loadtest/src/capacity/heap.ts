/** The service's memory as its own /metrics reports it. */
import { call } from '../rest';
import type { Service } from '../service';

/**
 * nodejs_heap_size_used_bytes + nodejs_external_memory_bytes, in KiB: what the process holds in
 * V8's heap and in Buffers, garbage not yet collected included (nothing forces a collection).
 * RSS keeps pages V8 and malloc no longer use; this follows what is in use.
 */
export async function heapKb(svc: Service): Promise<number> {
  const res = await call(svc, 'GET', '/metrics');
  const value = (name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(res.text)?.[1]);
  return Math.round((value('nodejs_heap_size_used_bytes') + value('nodejs_external_memory_bytes')) / 1024);
}
