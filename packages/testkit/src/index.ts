/** @pty-ws/testkit: fixtures and a raw wire client for the conformance suite. */
export * from './wait';
export * from './frames';
export * from './client';
export * from './join';
export * from './rest';
export * from './server';
export * from './context';
export * from './screen';
export * from './sequence';
export * from './cluster';
export { ServiceProcess, type ServiceHandle } from './cluster-process';
