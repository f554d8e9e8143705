/** A running pty-ws deployment under test, however it was started. */
import type { Endpoint } from './rest';

export interface Service extends Endpoint {
  /** Every process of the deployment: their CPU is summed in the fan-out figures. */
  cpuPids: number[];
  /** The process that hosts the PTYs and sessions (memory per idle session is read here). */
  hostPid: number;
  /** undefined while every process runs; otherwise which one ended, and its last output. */
  death(): string | undefined;
  stop(): Promise<void>;
}
