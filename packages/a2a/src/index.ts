/** @pty-ws/a2a: the transport-agnostic A2A core every binding (REST, JSON-RPC, gRPC, pty-ws/v1) calls. */
export * from './a2a-operations';
export { A2aCore, type A2aCoreDeps } from './a2a-core';
export { ContextSessions, type ContextSessionsOptions } from './context-sessions';
export { checkCall, requireControl, requireObserve, sessionScope } from './access';
export * from './parse';
export { INPUT_MEDIA_TYPES, checkA2aVersion } from './message-checks';
export { eventsOfUpdate, taskUpdateOf, withHistory, type TaskUpdate } from './stream-events';
export { TaskFeed } from './task-feed';
export { PushDispatcher } from './push/push-dispatcher';
export {
  WebhookDeliverer,
  type PushMetrics,
  type WebhookDelivererOptions,
  type WebhookTarget,
} from './push/webhook-deliverer';
export { renderA2a } from './render';
export { STREAMING_METHODS, UNARY_METHODS, bindOperations } from './methods';
export { redactUrl } from './push/redact-url';
export { WebhookAddressPolicy, WebhookAddressRefused } from './push/ssrf-guard';
