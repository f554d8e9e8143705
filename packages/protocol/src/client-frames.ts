import type {
  Envelope,
  GetTaskPayload,
  JoinSessionPayload,
  ListTasksPayload,
  RequestRolePayload,
  SendMessagePayload,
  ServiceParameters,
  SessionInputPayload,
  SessionResizePayload,
  TaskIdPayload,
} from './envelope';
import type { ClientOp } from './ops';

/** A payload with no fields of its own. */
type NoFields = Record<never, never>;

/**
 * The payload of each client op as the schemas (schemas.ts) accept it. Every payload may also
 * name the connection's session (`session_id`): a different one is refused (binding §11).
 */
export interface ClientPayloads {
  SendMessage: SendMessagePayload;
  SendStreamingMessage: SendMessagePayload;
  GetTask: GetTaskPayload;
  ListTasks: ListTasksPayload;
  CancelTask: TaskIdPayload;
  SubscribeToTask: TaskIdPayload;
  Unsubscribe: TaskIdPayload;
  UpdateServiceParameters: { service_parameters: ServiceParameters };
  /** Push config ops are refused on pty-ws/v1 (binding §4.7): their payload is never read. */
  SetTaskPushNotificationConfig: NoFields;
  GetTaskPushNotificationConfig: NoFields;
  ListTaskPushNotificationConfig: NoFields;
  DeleteTaskPushNotificationConfig: NoFields;
  ping: { client_ts?: string };
  'pty.join_session': JoinSessionPayload;
  'pty.leave_session': NoFields;
  'pty.session_input': SessionInputPayload;
  'pty.session_resize': SessionResizePayload;
  'pty.request_role': RequestRolePayload;
  'pty.release_role': NoFields;
  'pty.request_keyframe': NoFields;
}

/** Compile-time check: one payload type per client op, no more, no fewer. */
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : never) : never;
const payloadsCoverOps: SameKeys<ClientPayloads, Record<ClientOp, unknown>> = true;
void payloadsCoverOps;

/** One validated client frame of op `K`. */
export type ClientFrameOf<K extends ClientOp> = Omit<Envelope, 'op' | 'payload'> & {
  op: K;
  payload: ClientPayloads[K] & { session_id?: string };
};

/** A validated client frame: a union keyed by `op`, so a switch on `op` types its payload. */
export type ClientFrame = { [K in ClientOp]: ClientFrameOf<K> }[ClientOp];
