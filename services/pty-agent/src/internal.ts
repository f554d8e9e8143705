/**
 * `@pty-ws/pty-agent/internal`: pieces of the agent that this repository's tests drive on their
 * own (the sequencer against a real JetStream log). Not part of the agent's public entry.
 */
export { Sequencer } from './session/sequencer';
