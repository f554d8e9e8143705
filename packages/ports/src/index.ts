export * from './frame-log';
export * from './registry';
export * from './tokens';
export * from './tasks';
export * from './membership';
export * from './pty-host';
export * from './session-control';
export * from './task-page-token';
