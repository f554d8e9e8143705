export * from './token-bucket';
export * from './connection-admission';
export * from './frame-limiter';
export * from './shared-limits';
export * from './nats-limits-exchange';
