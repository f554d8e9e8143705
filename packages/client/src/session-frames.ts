/**
 * Translates `pty.session_frame` payloads (extension "Server frames") into SDK event shapes.
 * Pure: the client owns the state (role, anchor, join flush).
 */
import type { ClientRef, OutputStream, PtyRole } from '@pty-ws/protocol';
import { decodeBase64, SNAPSHOT_FORMAT } from '@pty-ws/protocol';
import type { ClosedEvent, KeyframeEvent, MembershipEvent, PtyErrorEvent, ResizeEvent, RoleEvent } from './events';
import { decodeUtf8 } from './runtime';

export type SessionFrame =
  | { kind: 'Output'; data: Uint8Array; stream: OutputStream; sequence: number }
  | { kind: 'Resize'; event: ResizeEvent }
  | { kind: 'RoleAssigned'; event: RoleEvent }
  | { kind: 'MembershipChanged'; event: MembershipEvent }
  | { kind: 'Keyframe'; event: KeyframeEvent }
  | { kind: 'Closed'; event: ClosedEvent }
  | { kind: 'Error'; event: PtyErrorEvent };

const num = (v: unknown, dflt = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);
const str = (v: unknown, dflt = ''): string => (typeof v === 'string' ? v : dflt);

function refs(v: unknown): ClientRef[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null)
    .map((r) =>
      typeof r['label'] === 'string'
        ? { client_id: str(r['client_id']), label: r['label'] }
        : { client_id: str(r['client_id']) },
    );
}

function stream(v: unknown): OutputStream {
  return v === 'stderr' || v === 'log' ? v : 'stdout';
}

/**
 * Returns undefined for an unknown `kind` (forward compatibility: v1 admits additive changes).
 * Throws when base64 data cannot be decoded.
 */
export function decodeSessionFrame(p: Record<string, unknown>, sequence: number): SessionFrame | undefined {
  switch (p['kind']) {
    case 'Output':
      return { kind: 'Output', data: decodeBase64(str(p['data'])), stream: stream(p['stream']), sequence };
    case 'Resize':
      return { kind: 'Resize', event: { cols: num(p['cols']), rows: num(p['rows']), sequence } };
    case 'RoleAssigned': {
      const event: RoleEvent = {
        role: p['role'] === 'controller' ? 'controller' : ('observer' satisfies PtyRole),
        clientId: str(p['client_id']),
        downgraded: p['downgraded'] === true,
        sequence,
      };
      if (typeof p['reason'] === 'string') event.reason = p['reason'];
      return { kind: 'RoleAssigned', event };
    }
    case 'MembershipChanged':
      return {
        kind: 'MembershipChanged',
        event: { controllers: refs(p['controllers']), observers: refs(p['observers']), sequence },
      };
    case 'Keyframe': {
      const data = decodeBase64(str(p['snapshot']));
      return {
        kind: 'Keyframe',
        event: {
          snapshot: decodeUtf8(data),
          data,
          format: str(p['snapshot_format'], SNAPSHOT_FORMAT),
          cols: num(p['snapshot_cols']),
          rows: num(p['snapshot_rows']),
          anchorSequence: num(p['anchor_sequence']),
          sequence,
        },
      };
    }
    case 'Closed': {
      const event: ClosedEvent = {
        exitCode: typeof p['exit_code'] === 'number' ? p['exit_code'] : null,
        reason: str(p['reason'], 'error'),
        sequence,
      };
      if (typeof p['detail'] === 'string') event.detail = p['detail'];
      return { kind: 'Closed', event };
    }
    case 'Error':
      return { kind: 'Error', event: { code: str(p['code'], 'INTERNAL'), message: str(p['message']), sequence } };
    default:
      return undefined;
  }
}
