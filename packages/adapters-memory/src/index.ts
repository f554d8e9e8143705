/** Embedded (single-process) implementations of the ports: the default wiring of the standalone server. */
export { MemoryFrameLog, type MemoryFrameLogOptions } from './frame-log';
export { MemorySessionRegistry } from './session-registry';
export { MemoryTokenStore } from './token-store';
export { MemoryTaskStore } from './task-store';
export { MemoryMembershipStore } from './membership-store';
export { MemoryPushConfigStore } from './push-config-store';
export { FileTranscriptArchive } from './file-transcript-archive';
export { JsonLinesAuditLog, type JsonLinesTarget, type JsonLinesAuditOptions } from './json-lines-audit-log';
export { MemoryPushOutbox } from './push-outbox';
export { FilePushOutbox } from './file-push-outbox';
export { MemoryContextSessionStore } from './context-session-store';
