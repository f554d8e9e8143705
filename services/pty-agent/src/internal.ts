/**
 * `@pty-ws/pty-agent/internal`: pieces of the agent that this repository's tests and bench drive
 * on their own (the sequencer against a real JetStream log, the PTY write in the bench's relay
 * floor). Not part of the agent's public entry.
 */
export { Sequencer } from './session/sequencer';
export { writeToPty } from './hosts/pty-write';
