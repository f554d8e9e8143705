import { Pool, type PoolConfig } from 'pg';

export interface ConnectPostgresOptions extends Omit<PoolConfig, 'connectionString'> {
  /**
   * Told about errors of idle pooled connections (the server restarted, the network dropped).
   * pg emits them on the pool, and an unheard 'error' event would end the process. Defaults to
   * one line on stderr (the error's message: pg's error object holds its whole Client); the pool
   * replaces the connection on next use.
   */
  onIdleError?: (error: Error) => void;
}

/**
 * Opens a pool and proves it works with one query, so a wrong URL or a down server fails at start
 * with the server (password stripped) and the reason, not at the first request.
 */
export async function connectPostgres(url: string, options: ConnectPostgresOptions = {}): Promise<Pool> {
  const { onIdleError, ...config } = options;
  const pool = new Pool({ connectionTimeoutMillis: 5000, ...config, connectionString: url });
  pool.on(
    'error',
    onIdleError ?? ((error) => process.stderr.write(`PostgreSQL pool: idle connection failed: ${error.message}\n`)),
  );
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(`cannot connect to PostgreSQL at ${redactPostgresUrl(url)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The URL without its password (user, host, port and database are what one needs to debug). */
export function redactPostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    // A keyword/value conninfo string ("host=... password=..."): drop the password pair.
    return url.replace(/password\s*=\s*('([^'\\]|\\.)*'|\S*)/gi, 'password=***');
  }
}
