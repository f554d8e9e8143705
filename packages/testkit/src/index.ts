/** @pty-ws/testkit: fixtures and a raw wire client for the conformance suite. */
export * from './wait';
export * from './frames';
export * from './output';
export * from './client';
export * from './join';
export * from './lag';
export * from './rest';
export * from './server';
export * from './context';
export * from './dropped-attach';
export * from './screen';
export * from './sequence';
export * from './cluster';
export * from './ports';
export {
  databaseUrl,
  dropNatsState,
  NATS_URL as TEST_NATS_URL,
  PG_ADMIN_URL as TEST_PG_ADMIN_URL,
  withPg,
} from './backends';
export { ServiceProcess, type ServiceHandle } from './cluster-process';
export { startStandaloneProcess, type StandaloneProcess } from './standalone-process';
export { ManualClock } from './manual-clock';
export { PANE_FLAGS, TMUX_INSTALLED, TmuxServer, type PaneState } from './tmux-panes';
