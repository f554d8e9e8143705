/**
 * Contract suites for the ports: each takes a factory and registers the same jest tests, so the
 * memory implementations and the networked ones (NATS, Postgres) are held to one behaviour.
 */
export { frameLogContract, type FrameLogFixture } from './frame-log.contract';
export { sessionRegistryContract, type SessionRegistryFixture } from './session-registry.contract';
export { tokenStoreContract, type TokenStoreFixture } from './token-store.contract';
export { taskStoreContract, type TaskStoreFixture } from './task-store.contract';
export { membershipStoreContract, type MembershipStoreFixture } from './membership-store.contract';
export { pushConfigStoreContract, type PushConfigStoreFixture } from './push-config-store.contract';
export { transcriptArchiveContract, type TranscriptArchiveFixture } from './transcript-archive.contract';
export { uniqueId, waitFor, settle } from './support';
export { auditLogContract, type AuditLogFixture } from './audit-log.contract';
export { pushOutboxContract, type PushOutboxFixture } from './push-outbox.contract';
export { ptyHostContract, type PtyHostFixture } from './pty-host.contract';
export { contextSessionStoreContract, type ContextSessionStoreFixture } from './context-session-store.contract';
export { sessionControlContract, type SessionControlFixture } from './session-control.contract';
