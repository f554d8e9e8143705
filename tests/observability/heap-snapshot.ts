/**
 * Heap snapshots of a service process, taken through `--heapsnapshot-signal` (V8 collects garbage
 * before it writes one, so what a snapshot holds is what is still reachable) and summed up: bytes
 * per node type and objects per constructor.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { waitUntil } from '@pty-ws/testkit';

export const SNAPSHOT_SIGNAL = 'SIGUSR2';

/** The `node` options that make a process write a snapshot into `dir` on SNAPSHOT_SIGNAL. */
export function snapshotFlags(dir: string): string[] {
  return [`--heapsnapshot-signal=${SNAPSHOT_SIGNAL}`, `--diagnostic-dir=${dir}`];
}

export interface HeapSummary {
  /** Self sizes of every node, native backing stores (Buffers' bytes) included. */
  totalBytes: number;
  /** Live objects per constructor name. */
  objects: Map<string, number>;
}

interface RawSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

export function summarize(raw: RawSnapshot): HeapSummary {
  const fields = raw.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = raw.snapshot.meta.node_types[0];
  const objects = new Map<string, number>();
  let totalBytes = 0;
  for (let i = 0; i < raw.nodes.length; i += width) {
    totalBytes += raw.nodes[i + sizeAt]!;
    if (types[raw.nodes[i + typeAt]!] !== 'object') continue;
    const name = raw.strings[raw.nodes[i + nameAt]!]!;
    objects.set(name, (objects.get(name) ?? 0) + 1);
  }
  return { totalBytes, objects };
}

/** Signals the process and waits for its next snapshot file to be complete. */
export async function takeSnapshot(child: ChildProcess, dir: string): Promise<HeapSummary> {
  const before = new Set(readdirSync(dir));
  child.kill(SNAPSHOT_SIGNAL);
  const file = await waitUntil(
    () => readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f)),
    60_000,
    'a heap snapshot file',
  );
  const path = join(dir, file);
  // Written in pieces: complete once its size holds still and it parses.
  let size = -1;
  const raw = await waitUntil(
    () => {
      const now = statSync(path).size;
      if (now === 0 || now !== size) {
        size = now;
        return undefined;
      }
      try {
        return JSON.parse(readFileSync(path, 'utf8')) as RawSnapshot;
      } catch {
        return undefined;
      }
    },
    60_000,
    'the heap snapshot to be written',
    250,
  );
  return summarize(raw);
}
