export { TerminalState, type ScreenSnapshot, type TerminalStateOptions } from './TerminalState';
