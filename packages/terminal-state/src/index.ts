export { TerminalState, type ScreenSnapshot, type TerminalStateOptions } from './TerminalState';
export { primeKeyframes } from './prime';
export { screenText, type ScreenFeed, type ScreenText } from './screenText';
export { type ScreenView } from './screenView';
