/** The `pty.join_session` flush (docs/spec/README.md interpretation 3), read off a test client. */
import type { JoinSessionPayload, SessionFramePayload } from '@pty-ws/protocol';
import type { TestClient } from './client';
import { errorPayloadOf, is, sessionFrameOf, type Received } from './frames';

type Kind<K extends SessionFramePayload['kind']> = Extract<SessionFramePayload, { kind: K }>;

export interface JoinFlush {
  /** The join request's id. */
  id: string;
  /** Index in client.frames of the first frame after the request was sent. */
  from: number;
  /** Every frame from `from` up to and including the flush Keyframe. */
  frames: Received[];
  roleAssigned: Kind<'RoleAssigned'>;
  roleFrame: Received;
  keyframe: Kind<'Keyframe'>;
  keyframeFrame: Received;
  clientId: string;
}

export interface JoinOptions {
  replayFrom?: number | null;
  timeoutMs?: number;
}

/**
 * Sends `pty.join_session` and waits for the flush to end with its Keyframe. Fails when the
 * server answers the join with an Error instead of a RoleAssigned.
 */
export async function joinSession(
  client: TestClient,
  payload: JoinSessionPayload = {},
  opts: JoinOptions = {},
): Promise<JoinFlush> {
  const timeoutMs = opts.timeoutMs ?? 4000;
  const from = client.mark();
  const id = client.send(
    'pty.join_session',
    payload,
    opts.replayFrom !== undefined ? { replay_from: opts.replayFrom } : {},
  );
  const first = await client.waitFor(
    (r) => is.kind('RoleAssigned')(r) || (is.reply(id)(r) && is.error()(r)),
    timeoutMs,
    from,
  );
  const err = errorPayloadOf(first);
  if (err) throw new Error(`join rejected: ${err.code} ${err.message}`);
  const roleAssigned = sessionFrameOf(first, 'RoleAssigned') as Kind<'RoleAssigned'>;
  const roleIndex = client.frames.indexOf(first);
  const kf = await client.waitFor(is.kind('Keyframe'), timeoutMs, roleIndex + 1);
  const kfIndex = client.frames.indexOf(kf);
  client.seek(kfIndex + 1);
  return {
    id,
    from,
    frames: client.frames.slice(from, kfIndex + 1),
    roleAssigned,
    roleFrame: first,
    keyframe: sessionFrameOf(kf, 'Keyframe') as Kind<'Keyframe'>,
    keyframeFrame: kf,
    clientId: roleAssigned.client_id,
  };
}
