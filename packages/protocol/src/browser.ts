/**
 * `@pty-ws/protocol/browser`: the wire protocol without `validate`/`schemas`. The root also
 * exports ajv-based frame validation, which compiles schemas with `new Function` (a strict CSP
 * would need 'unsafe-eval') and adds ~150 kB: the dashboard bundle uses this entry instead.
 */
export * from './constants';
export * from './a2a';
export * from './errors';
export * from './envelope';
export * from './ops';
export * from './binary';
export * from './base64';
export * from './ids';
export * from './frames';
export type { ClientFrame, ClientFrameOf, ClientPayloads } from './client-frames';
