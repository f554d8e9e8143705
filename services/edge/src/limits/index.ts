export * from './token-bucket';
export * from './connection-admission';
export * from './frame-limiter';
