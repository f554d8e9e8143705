/** Public surface of the wire protocol: types and pure functions, no I/O. */
export * from './constants';
export * from './a2a';
export * from './errors';
export * from './envelope';
export * from './ops';
export * from './binary';
export * from './base64';
export * from './ids';
export * from './frames';
export { parseClientFrame, FrameRejected, type ClientFrame } from './validate';
export { BASE64_PATTERN, envelopeSchema, payloadSchemas } from './schemas';
export * from './session-host';
export { SearchableText, type TextMatch } from './searchable-text';
