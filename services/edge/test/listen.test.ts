import { request } from 'node:http';
import { freePort } from '@pty-ws/testkit';
import { listenEdge, type EdgeListener } from '../src/listen';
import { uWS, type TemplatedApp } from '../src/uws';

/**
 * An edge owns its port. uWS's default listen sets SO_REUSEPORT, which let a second edge of the
 * same user bind the same port and take half of the first one's connections without a word (seen
 * in CI: two test clusters picked one port, and a cluster's own admin token was refused on every
 * other attach, by the other cluster's edge).
 */
function appNamed(name: string): TemplatedApp {
  return uWS.App().get('/*', (res) => {
    res.end(name);
  });
}

function get(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('listenEdge', () => {
  const open: EdgeListener[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((l) => l.close()));
  });

  it('refuses a port another uWS app already listens on, and every connection reaches the first', async () => {
    const port = await freePort();
    const first = await listenEdge(appNamed('first'), { host: '127.0.0.1', port }, undefined);
    open.push(first);
    expect(first.port).toBe(port);

    const second = await listenEdge(appNamed('second'), { host: '127.0.0.1', port }, undefined).then(
      (l) => (open.push(l), 'listening'),
      (err: Error) => err.message,
    );
    expect(second).toMatch(`cannot listen on 127.0.0.1:${port}`);

    const answers = await Promise.all(Array.from({ length: 20 }, () => get(port)));
    expect(new Set(answers)).toEqual(new Set(['first']));
  });

  it('takes the port again once its holder has closed it', async () => {
    const port = await freePort();
    const first = await listenEdge(appNamed('first'), { host: '127.0.0.1', port }, undefined);
    expect(await get(port)).toBe('first');
    await first.close();
    const again = await listenEdge(appNamed('again'), { host: '127.0.0.1', port }, undefined);
    open.push(again);
    expect(await get(port)).toBe('again');
  });

  it('port 0 still gets a port of its own from the kernel', async () => {
    const a = await listenEdge(appNamed('a'), { host: '127.0.0.1', port: 0 }, undefined);
    const b = await listenEdge(appNamed('b'), { host: '127.0.0.1', port: 0 }, undefined);
    open.push(a, b);
    expect(a.port).toBeGreaterThan(0);
    expect(b.port).not.toBe(a.port);
  });
});
