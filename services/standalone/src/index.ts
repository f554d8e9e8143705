export { startNode, type StartOptions } from './start-node';
export type { RunningNode } from './node';
