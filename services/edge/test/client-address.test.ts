import { HostPolicy } from '../src/http/host-policy';
import { TransportPolicy } from '../src/transport';

describe('TransportPolicy.clientAddress (X-Forwarded-For)', () => {
  const p = new TransportPolicy(true, true, ['10.0.0.0/8', '::1/128']);

  it('from a trusted proxy: the rightmost hop that is not a trusted proxy', () => {
    expect(p.clientAddress('10.0.0.2', '203.0.113.5')).toBe('203.0.113.5');
    expect(p.clientAddress('::ffff:10.0.0.2', '198.51.100.1, 203.0.113.5')).toBe('203.0.113.5');
    expect(p.clientAddress('::1', '203.0.113.5, 10.9.9.9, ::ffff:10.0.0.3')).toBe('203.0.113.5');
    // Only trusted hops: the leftmost of them is as far as the chain can be followed.
    expect(p.clientAddress('10.0.0.2', '10.0.0.9, 10.0.0.3')).toBe('10.0.0.9');
  });

  it('junk stops the walk at the last good hop; an untrusted peer is its own client', () => {
    expect(p.clientAddress('10.0.0.2', 'unknown, 10.0.0.3')).toBe('10.0.0.3');
    expect(p.clientAddress('10.0.0.2', 'not-an-address')).toBe('10.0.0.2');
    expect(p.clientAddress('10.0.0.2', '')).toBe('10.0.0.2');
    expect(p.clientAddress('192.0.2.7', '203.0.113.5')).toBe('192.0.2.7');
  });
});

describe('HostPolicy', () => {
  it('with auth disabled: IP literals, localhost and listed names only', () => {
    const h = new HostPolicy(['pty.example.com'], false);
    for (const ok of [
      '127.0.0.1:8080',
      '[::1]:8080',
      '10.1.2.3',
      'localhost',
      'a.localhost:1',
      'PTY.example.com.:443',
      '',
    ])
      expect({ ok, refused: h.check(ok) }).toEqual({ ok, refused: undefined });
    for (const bad of ['rebind.evil.example:8080', 'localhost.evil.example', 'pty.example.com.evil', '[::1', 'a b'])
      expect(h.check(bad)).toMatch(/not served here/);
  });

  it('with auth enabled: open unless names are listed; `*` opens it', () => {
    expect(new HostPolicy([], true).enforced).toBe(false);
    expect(new HostPolicy(['pty.example.com'], true).check('other.example')).toMatch(/not served/);
    expect(new HostPolicy(['*'], false).enforced).toBe(false);
  });
});
