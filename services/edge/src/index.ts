export { startEdge, type EdgeDeps, type RunningEdge } from './edge-server';
export { hashToken, generateToken, type Principal } from './auth';
export type { Logger } from './logger';
export { silentLogger } from './logger';
export { openJsonLinesAudit, TeeAuditLog } from './audit/open-audit-log';
