/** The structured logger the edge and agent write to (pino satisfies it). */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
