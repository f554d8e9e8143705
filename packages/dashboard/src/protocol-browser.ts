/**
 * The browser's view of @pty-ws/protocol: everything the SDK needs, without `validate`/`schemas`
 * (ajv compiles schemas with `new Function`, which the CSP forbids, and weighs ~150 kB). build.mjs
 * points every `@pty-ws/protocol` import in the bundle here; the package's `./browser` entry is
 * that subset.
 */
export * from '@pty-ws/protocol/browser';
