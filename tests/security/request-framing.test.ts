/**
 * A request with conflicting `Content-Length` headers has no single body (RFC 9112 §6.3): a proxy
 * in front may frame it by one length and the edge by the other (request smuggling). It is
 * refused with 400 before any route runs; identical repeats are one length and pass.
 */
import { connect } from 'node:net';
import { TestContext, http } from '@pty-ws/testkit';

jest.setTimeout(60_000);

/** One raw HTTP/1.1 exchange on its own socket: the status code, or 0 when the server closed without one. */
function rawStatus(url: string, request: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const sock = connect(Number(port), hostname);
    let text = '';
    const done = () => {
      sock.destroy();
      resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0));
    };
    sock.on('connect', () => sock.write(request));
    sock.on('data', (c: Buffer) => {
      text += c.toString('latin1');
      if (text.includes('\r\n\r\n')) done();
    });
    sock.on('error', done);
    sock.on('close', done);
  });
}

describe('conflicting Content-Length', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start();
  });
  afterAll(() => ctx?.dispose());

  const sessionCount = async () =>
    ((await http(ctx.server, 'GET', '/api/v1/sessions')).body as { sessions: unknown[] }).sessions.length;

  const createWith = (lengths: string[]) => {
    const body = JSON.stringify({ argv: ['/bin/true'] });
    const head = [
      'POST /api/v1/sessions HTTP/1.1',
      `Host: ${new URL(ctx.server.httpUrl).host}`,
      `Authorization: Bearer ${ctx.server.adminToken}`,
      'Content-Type: application/json',
      'Connection: close',
      ...lengths.map((l) => `Content-Length: ${l}`),
    ];
    return rawStatus(ctx.server.httpUrl, `${head.join('\r\n')}\r\n\r\n${body}`);
  };

  it('refuses two different lengths with 400 and creates nothing', async () => {
    const body = JSON.stringify({ argv: ['/bin/true'] });
    const before = await sessionCount();
    expect(await createWith([String(body.length), '0'])).toBe(400);
    expect(await createWith(['0', String(body.length)])).toBe(400);
    // A list in one field is not a number: uWS itself drops the connection without an answer.
    expect([0, 400]).toContain(await createWith([`${body.length}, 0`]));
    expect(await sessionCount()).toBe(before);
  });

  it('accepts a repeated identical length', async () => {
    const body = JSON.stringify({ argv: ['/bin/true'] });
    expect(await createWith([String(body.length), String(body.length)])).toBe(201);
  });
});
