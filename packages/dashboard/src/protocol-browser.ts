/**
 * The browser's view of @pty-ws/protocol: everything the SDK needs, without `validate`/`schemas`.
 * The package root also exports ajv-based frame validation, which compiles schemas with
 * `new Function` (a strict CSP would need 'unsafe-eval') and adds ~150 kB. build.mjs points every
 * `@pty-ws/protocol` import in the bundle here; the deep paths below are the package's own modules.
 */
export * from '@pty-ws/protocol/dist/constants';
export * from '@pty-ws/protocol/dist/a2a';
export * from '@pty-ws/protocol/dist/errors';
export * from '@pty-ws/protocol/dist/envelope';
export * from '@pty-ws/protocol/dist/ops';
export * from '@pty-ws/protocol/dist/binary';
export * from '@pty-ws/protocol/dist/base64';
export * from '@pty-ws/protocol/dist/ids';
export * from '@pty-ws/protocol/dist/frames';
