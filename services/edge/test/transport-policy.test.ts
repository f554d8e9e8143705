import { TransportPolicy, normalizeAddress } from '../src/transport';
import { LoopbackPool } from '../src/mtls/loopback-pool';
import { certificateIdentity } from '../src/mtls/certificate-identity';

describe('TransportPolicy.admit', () => {
  it('without TLS and PTYWS_ALLOW_INSECURE=0: only a trusted proxy that saw https passes', () => {
    const p = new TransportPolicy(false, false, ['10.0.0.0/8']);
    expect(p.admit('10.1.2.3', 'https')).toEqual({ ok: true, remoteAddress: '10.1.2.3' });
    expect(p.admit('10.1.2.3', 'http').ok).toBe(false);
    const refused = p.admit('192.168.1.1', 'https');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.message).toMatch(/https:\/\/ and wss:\/\//);
  });

  it('behind the mTLS front: a relayed peer (named in its PROXY header) carries its certificate; anything else is refused', () => {
    const peers = new Map([['127.1.0.7', { remoteAddress: '203.0.113.9', certificate: 'alice-bot' }]]);
    const p = new TransportPolicy(true, true, [], { peerOf: (a) => peers.get(a) });
    // uWS may print the relay's proxied address as IPv4-mapped IPv6.
    expect(p.admit('', '', '', '', '0000:0000:0000:0000:0000:ffff:7f01:0007')).toEqual({
      ok: true,
      remoteAddress: '203.0.113.9',
      certificate: 'alice-bot',
    });
    // No PROXY header (a process reaching the app's socket directly), even from the relay's address.
    const direct = p.admit('127.1.0.7', 'https');
    expect(direct.ok).toBe(false);
    expect(!direct.ok && direct.message).toMatch(/client certificate/);
    // A PROXY header naming no open relay.
    expect(p.admit('', '', '', '', '127.1.0.8').ok).toBe(false);
  });

  it('normalizes IPv4-mapped forms', () => {
    expect(normalizeAddress('::ffff:127.1.0.7')).toBe('127.1.0.7');
  });
});

describe('LoopbackPool', () => {
  it('hands out distinct 127/8 addresses and reuses released ones only after a full cycle', () => {
    const pool = new LoopbackPool();
    const a = pool.acquire();
    const b = pool.acquire();
    expect(a).toBe('127.1.0.1');
    expect(b).toBe('127.1.0.2');
    pool.release(a!);
    expect(pool.acquire()).toBe('127.1.0.3');
    expect(pool.size).toBe(2);
  });
});

describe('certificateIdentity', () => {
  it('is the subject CN, else the first SAN, else nothing', () => {
    expect(certificateIdentity({ subject: { CN: 'alice-bot', O: 'ops' } } as never)).toBe('alice-bot');
    expect(
      certificateIdentity({ subject: { O: 'ops' }, subjectaltname: 'IP Address:1.2.3.4, DNS:bot.example' } as never),
    ).toBe('bot.example');
    expect(certificateIdentity({ subject: {} } as never)).toBeUndefined();
    expect(certificateIdentity({})).toBeUndefined();
  });
});
