/**
 * The services' `node` options (packages/config/src/node-flags.ts) and environment
 * (service-env.ts): every documented way to start a service passes them, and a service started
 * without them says so at startup.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_ENV, SERVICE_ENV_PREFIX, SERVICE_NODE_FLAGS } from '@pty-ws/config';
import { startStandaloneProcess, type StandaloneProcess } from '@pty-ws/testkit';

jest.setTimeout(30_000);

const ROOT = path.resolve(__dirname, '../..');
const FLAGS = SERVICE_NODE_FLAGS.join(' ');
const scripts = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** Every `node [options] services/<name>/dist/main.js` in a text, with its options. */
function serviceCommands(text: string): Array<{ service: string; options: string }> {
  const re = /\bnode((?:\s+--\S+)*)\s+services\/(edge|pty-agent|standalone)\/dist\/main\.js/g;
  return [...text.matchAll(re)].map((m) => ({ service: m[2]!, options: m[1]!.trim() }));
}

describe('every documented way to start a service passes SERVICE_NODE_FLAGS', () => {
  it('npm start, npm run edge and npm run agent', () => {
    for (const name of ['start', 'edge', 'agent']) {
      const commands = serviceCommands(scripts[name] ?? '');
      expect([name, commands.length]).toEqual([name, 1]);
      expect([name, commands[0]!.options]).toEqual([name, FLAGS]);
    }
  });

  it('npm run bench and npm run loadtest (their readers must not be the bottleneck)', () => {
    for (const [name, script] of [
      ['bench', 'bench.js'],
      ['loadtest', 'loadtest.js'],
    ] as const)
      expect([name, scripts[name]]).toEqual([name, expect.stringContaining(`node ${FLAGS} loadtest/dist/${script}`)]);
  });

  it.each(['README.md', 'deploy/README.md'])('the commands in %s', (file) => {
    const commands = serviceCommands(readFileSync(path.join(ROOT, file), 'utf8'));
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands) expect([c.service, c.options]).toEqual([c.service, FLAGS]);
  });

  it('finds a command without them (the check can fail)', () => {
    expect(serviceCommands('x=1 node services/edge/dist/main.js &')).toEqual([{ service: 'edge', options: '' }]);
  });
});

/** The one startup log line of `p` that has `field`, parsed (it must be exactly one). */
function onlyWarning(p: StandaloneProcess, field: string): Record<string, unknown> {
  const lines = p
    .stdout()
    .split('\n')
    .filter((l) => l.includes(`"${field}"`));
  expect([field, lines.length]).toEqual([field, 1]);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe('every documented way to start a service sets SERVICE_ENV', () => {
  it('npm start, npm run edge / agent, and the bench and load test (their floors and readers too)', () => {
    for (const [name, target] of [
      ['start', 'services/standalone/dist/main.js'],
      ['edge', 'services/edge/dist/main.js'],
      ['agent', 'services/pty-agent/dist/main.js'],
      ['bench', 'loadtest/dist/bench.js'],
      ['loadtest', 'loadtest/dist/loadtest.js'],
    ] as const)
      expect([name, scripts[name]]).toEqual([
        name,
        expect.stringContaining(`${SERVICE_ENV_PREFIX} node ${FLAGS} ${target}`),
      ]);
  });

  it("the README's cluster quick start exports it before the first service starts", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Cluster mode\n'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    const exported = block.indexOf(`export ${SERVICE_ENV_PREFIX} `);
    expect(exported).toBeGreaterThanOrEqual(0);
    expect(exported).toBeLessThan(block.search(/\bnode\s.*services\//));
  });
});

describe('a service started without SERVICE_ENV', () => {
  const started: StandaloneProcess[] = [];
  afterAll(() => started.forEach((p) => p.kill()));

  it('warns once at startup, naming the missing setting; started with it (as testkit does), it does not', async () => {
    const blank = Object.fromEntries(Object.keys(SERVICE_ENV).map((k) => [k, '']));
    const [without, withEnv] = await Promise.all([startStandaloneProcess(blank), startStandaloneProcess()]);
    started.push(without, withEnv);
    const entry = onlyWarning(without, 'missing_env') as { missing_env: string[]; msg: string };
    expect(entry.missing_env).toEqual([SERVICE_ENV_PREFIX]);
    expect(entry.msg).toContain(SERVICE_ENV_PREFIX);
    expect(withEnv.stdout()).not.toContain('missing_env');
    // The process really has it: glibc reads it from the environment it was started with.
    const environ = readFileSync(`/proc/${withEnv.child.pid}/environ`, 'utf8').split('\0');
    expect(environ).toContain(SERVICE_ENV_PREFIX);
  });
});

describe('a service started without SERVICE_NODE_FLAGS', () => {
  const started: StandaloneProcess[] = [];
  afterAll(() => started.forEach((p) => p.kill()));

  it('warns once at startup, naming the missing options; started with them, it does not', async () => {
    const [without, withFlags] = await Promise.all([startStandaloneProcess({}, []), startStandaloneProcess()]);
    started.push(without, withFlags);
    const entry = onlyWarning(without, 'missing_node_options') as { missing_node_options: string[]; msg: string };
    expect(entry.missing_node_options).toEqual([...SERVICE_NODE_FLAGS]);
    expect(entry.msg).toContain(SERVICE_NODE_FLAGS[0]);
    expect(withFlags.stdout()).not.toContain('missing_node_options');
    // testkit starts it as npm start does: the options are on the process's own command line.
    const argv = readFileSync(`/proc/${withFlags.child.pid}/cmdline`, 'utf8').split('\0');
    for (const flag of SERVICE_NODE_FLAGS) expect(argv).toContain(flag);
  });
});
