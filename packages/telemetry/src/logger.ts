import { hostname } from 'node:os';
import pino from 'pino';

/** The structured logger the services write to; services/edge's `Logger` has the same shape. */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(level: string): level is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(level);
}

export interface LoggerOptions {
  /** The `service` field of every line; default `pty-ws`. */
  service?: string;
  /** Where lines go; default stdout. */
  destination?: NodeJS.WritableStream;
}

/** One JSON object per line (pino): `level`, ISO `time`, `service`, `pid`, `hostname`, `msg`, fields. */
export function createLogger(level: LogLevel, opts: LoggerOptions = {}): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: opts.service ?? 'pty-ws', pid: process.pid, hostname: hostname() },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
