/** Public surface of the wire protocol: types and pure functions, no I/O. */
// The browser-safe part (also the `./browser` entry), then what needs ajv or is server-only.
export * from './browser';
export { compileClientFrameValidators, parseClientFrame, FrameRejected } from './validate';
export { BASE64_PATTERN, envelopeSchema, payloadSchemas } from './schemas';
export * from './session-host';
export { decodePathSegment, tryDecodePathSegment } from './path-segment';
export { SearchableText, type TextMatch } from './searchable-text';
export { MAX_JSON_DEPTH, jsonTooDeep } from './json-depth';
