export { TerminalState, type ScreenSnapshot, type TerminalStateOptions } from './TerminalState';
export { primeKeyframes } from './prime';
