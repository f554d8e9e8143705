/**
 * A throwaway PostgreSQL instance in a temp dir (trust auth, loopback, a free port), so a test
 * can stop and start it. The machine's PostgreSQL on 5432 is never touched.
 *
 * initdb and postgres refuse to run as root, so when the tests run as root every server command
 * runs as the `postgres` system user (runuser) over a temp dir it owns.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@pty-ws/testkit';

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL server binaries under ${root}`);
  return path.join(root, versions[0]!, 'bin');
}

export class OwnPostgres {
  private readonly bin = binDir();
  private readonly asRoot = userInfo().uid === 0;
  private disposed = false;
  private readonly stopOnExit = () => this.pgCtl(['stop', '-m', 'immediate'], false);

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {
    // Safety net for a worker that dies without afterAll: pg_ctl daemonizes the server.
    process.once('exit', this.stopOnExit);
  }

  /** initdb + start; resolves once the server accepts connections. */
  static async create(): Promise<OwnPostgres> {
    const dir = mkdtempSync(path.join(tmpdir(), 'ptyws-pg-'));
    const pg = new OwnPostgres(dir, await freePort());
    try {
      if (pg.asRoot) chownSync(dir, pwUid('postgres'), pwGid('postgres'));
      pg.run('initdb', ['-D', pg.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
      pg.start();
      return pg;
    } catch (err) {
      pg.dispose();
      throw err;
    }
  }

  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start(): void {
    this.pgCtl([
      'start',
      '-w',
      '-t',
      '20',
      '-l',
      path.join(this.dir, 'server.log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    ]);
  }

  /** `fast`: clients are disconnected at once, like a crash as far as they can tell. */
  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    this.pgCtl(['stop', '-w', '-m', mode]);
  }

  /**
   * SIGSTOPs the server and every backend (SIGCONT with `thaw`): connections stay open and nothing
   * answers, as with a hung host or a partition, where only a deadline ends a wait.
   */
  freeze(): void {
    for (const pid of this.serverPids()) process.kill(pid, 'SIGSTOP');
  }

  thaw(): void {
    for (const pid of this.serverPids()) process.kill(pid, 'SIGCONT');
  }

  /** The postmaster (first line of postmaster.pid) and its children. */
  private serverPids(): number[] {
    const postmaster = Number(readFileSync(path.join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)])
      .toString()
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
    return [postmaster, ...children];
  }

  /** Stops the server (if running) and deletes the instance. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (existsSync(path.join(this.dataDir, 'postmaster.pid'))) this.pgCtl(['stop', '-w', '-m', 'immediate'], false);
    process.removeListener('exit', this.stopOnExit);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private pgCtl(args: string[], check = true): void {
    if (!check) {
      const cmd = this.command('pg_ctl', ['-D', this.dataDir, ...args]);
      spawnSync(cmd[0]!, cmd.slice(1), { stdio: 'ignore', cwd: this.dir });
      return;
    }
    this.run('pg_ctl', ['-D', this.dataDir, ...args]);
  }

  private run(tool: string, args: string[]): void {
    const cmd = this.command(tool, args);
    try {
      execFileSync(cmd[0]!, cmd.slice(1), { stdio: 'pipe', timeout: 30_000, cwd: this.dir });
    } catch (err) {
      const e = err as { stderr?: Buffer; stdout?: Buffer; message: string };
      throw new Error(`${tool} ${args.join(' ')} failed: ${e.message}\n${e.stdout?.toString()}${e.stderr?.toString()}`);
    }
  }

  private command(tool: string, args: string[]): string[] {
    const exe = path.join(this.bin, tool);
    return this.asRoot ? ['runuser', '-u', 'postgres', '--', exe, ...args] : [exe, ...args];
  }
}

function pwUid(user: string): number {
  return Number(execFileSync('id', ['-u', user]).toString().trim());
}
function pwGid(user: string): number {
  return Number(execFileSync('id', ['-g', user]).toString().trim());
}
