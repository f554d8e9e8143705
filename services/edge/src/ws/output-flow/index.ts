/** The output flow rule of one session on this edge (README.md beside this file). */
export { OutputFlow, usable, type OutputFlowOptions } from './output-flow';
export { isProbeAnswer, probeAnswered } from './pace-probe';
