import type { Endpoint } from '../rest';
import type { Recorder } from './recorder';

/** What a scenario gets: where the server is, its recorder, and its bounds. */
export interface ScenarioContext {
  ep: Endpoint;
  rec: Recorder;
  /** Virtual users (concurrent connections). */
  connections: number;
  /** performance.now() at which VUs stop starting iterations. */
  deadline: number;
  /** Arrivals a second of an arrival-rate scenario (token-mix; the k6 script's RATE). */
  rate: number;
  /** Sessions created for the run; deleted afterwards. */
  createSession(argv: string[]): Promise<string>;
  /** POST /api/v1/tokens; the token (revoked after the run). */
  mintToken(body: { scopes: string[]; session_id?: string }): Promise<string>;
}

export type Scenario = (ctx: ScenarioContext) => Promise<void>;
