/**
 * `@pty-ws/pty-agent/internal`: pieces of the agent that this repository's tests and bench drive
 * on their own (the sequencer against a real JetStream log, the PTY write in the bench's relay
 * floor, the multiplexer tests' view of a client's output and of /proc and the multiplexers' history sizes, the stream relays a
 * process runs, the path watch, the adapters of private APIs, the settings of a SessionManager under
 * test). Not part of the agent's public entry.
 */
export { Sequencer } from './session/sequencer';
export { writeToPty } from './hosts/pty-write';
export { visibleText } from './hosts/visible-text';
export { TMUX_HISTORY_LINES } from './hosts/tmux-host';
export { SCREEN_HISTORY_LINES } from './hosts/screen-host';
export { procStat } from './shell/foreground';
export { runningRelays } from './hosts/spawner/stream-relay';
export { pathWatch, type PathWatch } from './hosts/path-watch';
export { announceAlternativePaths } from './alternative-paths';
export { loadNativePty, nodePtyVersion, unixTerminalProblem } from './hosts/node-pty-private';
export { libuvStreamProblem, setReading } from './hosts/spawner/libuv-stream';
export { TEST_AGENT_SETTINGS } from './session/test-settings';
