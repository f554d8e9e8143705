import { CORE_OPERATIONS } from './constants';

/**
 * Every op a client may send, with the op the server answers with. `null` means the answer is
 * not a single `<op>.Response` (extension verbs answer with session frames or nothing).
 */
export const CLIENT_OPS = {
  SendMessage: 'SendMessage.Response',
  SendStreamingMessage: 'SendStreamingMessage.Accepted',
  GetTask: 'GetTask.Response',
  ListTasks: 'ListTasks.Response',
  CancelTask: 'CancelTask.Response',
  SubscribeToTask: 'SubscribeToTask.Accepted',
  Unsubscribe: 'Unsubscribe.Response',
  UpdateServiceParameters: 'UpdateServiceParameters.Response',
  SetTaskPushNotificationConfig: null,
  GetTaskPushNotificationConfig: null,
  ListTaskPushNotificationConfig: null,
  DeleteTaskPushNotificationConfig: null,
  ping: 'pong',
  'pty.join_session': null,
  'pty.leave_session': null,
  'pty.session_input': null,
  'pty.session_resize': null,
  'pty.request_role': null,
  'pty.release_role': null,
  'pty.request_keyframe': null,
} as const;

export type ClientOp = keyof typeof CLIENT_OPS;

/** Ops answered with UNSUPPORTED_OPERATION and a pointer to REST/JSON-RPC (binding §4.7). */
export const PUSH_NOTIFICATION_OPS: ReadonlySet<string> = new Set([
  'SetTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfig',
  'DeleteTaskPushNotificationConfig',
]);

/** Extension verbs: only valid once pty-extensions/v1 is activated on the connection. */
export const EXTENSION_OPS: ReadonlySet<string> = new Set(
  Object.keys(CLIENT_OPS).filter((op) => op.startsWith('pty.')),
);

/** Ops that require the `pty:control` scope and the controller role. */
export const CONTROL_OPS: ReadonlySet<string> = new Set(['pty.session_input', 'pty.session_resize']);

/** What binding_hello advertises. */
export const SUPPORTED_OPERATIONS: readonly string[] = [
  ...CORE_OPERATIONS,
  'Unsubscribe',
  'UpdateServiceParameters',
  'ping',
];

export function isClientOp(op: string): op is ClientOp {
  return Object.prototype.hasOwnProperty.call(CLIENT_OPS, op);
}
