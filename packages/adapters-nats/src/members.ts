import type { Member } from '@pty-ws/ports';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

export function encodeMembers(members: readonly Member[]): Uint8Array {
  return utf8.encode(JSON.stringify(members));
}

/** Checks the shape rather than trusting the bucket: anything else could have written the key. */
export function decodeMembers(data: Uint8Array, key: string): Member[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromUtf8.decode(data));
  } catch {
    throw new Error(`membership of '${key}' is not JSON`);
  }
  if (!Array.isArray(parsed)) throw new Error(`membership of '${key}' is not a list`);
  return parsed.map((m, i) => {
    if (!isMember(m)) throw new Error(`membership of '${key}': member ${i} is malformed`);
    const member: Member = {
      clientId: m.clientId,
      role: m.role,
      edgeId: m.edgeId,
      principalId: m.principalId,
      joinedAt: m.joinedAt,
    };
    if (m.label !== undefined) member.label = m.label;
    return member;
  });
}

function isMember(v: unknown): v is Member {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  return (
    typeof m.clientId === 'string' &&
    (m.role === 'controller' || m.role === 'observer') &&
    typeof m.edgeId === 'string' &&
    typeof m.principalId === 'string' &&
    typeof m.joinedAt === 'number' &&
    (m.label === undefined || typeof m.label === 'string')
  );
}
