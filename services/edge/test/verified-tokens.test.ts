import { MemoryTokenStore } from '@pty-ws/adapters-memory';
import type { TokenRecord } from '@pty-ws/ports';
import { Authenticator, hashToken } from '../src/auth';
import { VerifiedTokens } from '../src/verified-tokens';
import { ManualClock } from '@pty-ws/testkit';

/** A TokenStore that counts lookups and can hold one back, to see what the cache answers. */
class CountingStore extends MemoryTokenStore {
  lookups = 0;
  hold: Promise<void> | undefined;
  override async findByHash(hash: string): Promise<TokenRecord | undefined> {
    this.lookups++;
    const rec = await super.findByHash(hash);
    if (this.hold) await this.hold;
    return rec;
  }
}

/** The cache's and the expiry check's clock, moved by the tests. */
const clock = new ManualClock();

async function setup(ttlMs = 5000, maxEntries = 100) {
  const store = new CountingStore();
  const auth = new Authenticator({
    tokens: store,
    enabled: true,
    clock,
    verified: new VerifiedTokens({ ttlMs, maxEntries, clock }),
  });
  const mint = async (id: string, extra: Partial<TokenRecord> = {}) => {
    const token = `tok-${id}`;
    await store.insert({
      tokenId: id,
      hash: hashToken(token),
      scopes: ['pty:control'],
      instanceId: 'i',
      createdBy: 'test',
      createdAt: 0,
      ...extra,
    });
    return token;
  };
  return { store, auth, mint };
}

const reasonOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { reason?: string }) => e.reason,
  );

describe('Authenticator with verified-token cache', () => {
  it('asks the store once per token within the lifetime, again after it', async () => {
    const { store, auth, mint } = await setup();
    const t = await mint('a');
    for (let i = 0; i < 5; i++) expect((await auth.authenticate(t)).tokenId).toBe('a');
    expect(store.lookups).toBe(1);
    clock.advance(5000);
    await auth.authenticate(t);
    expect(store.lookups).toBe(2);
  });

  it('refuses a revoked token at once after forget, although it was cached', async () => {
    const { store, auth, mint } = await setup();
    const t = await mint('a');
    await auth.authenticate(t);
    await store.revoke('a', clock.now());
    auth.forget('a');
    expect(await reasonOf(auth.authenticate(t))).toBe('revoked');
  });

  it('does not cache a lookup that a revocation overtook', async () => {
    const { store, auth, mint } = await setup();
    const t = await mint('a');
    let release!: () => void;
    store.hold = new Promise((r) => (release = r));
    const inFlight = auth.authenticate(t); // read the record before the revocation
    await new Promise((r) => setImmediate(r));
    await store.revoke('a', clock.now());
    auth.forget('a');
    release();
    store.hold = undefined;
    expect(await reasonOf(inFlight)).toBe('ok'); // it was valid when read
    expect(await reasonOf(auth.authenticate(t))).toBe('revoked');
  });

  it('never caches unknown, revoked or expired tokens, and checks expiry on every use', async () => {
    const { store, auth, mint } = await setup();
    expect(await reasonOf(auth.authenticate('nope'))).toBe('invalid');
    expect(await reasonOf(auth.authenticate('nope'))).toBe('invalid');
    expect(store.lookups).toBe(2);
    const soon = await mint('b', { expiresAt: clock.now() + 300 });
    await auth.authenticate(soon); // cached for 5 s
    clock.advance(350); // still cached, but past its expiry
    expect(await reasonOf(auth.authenticate(soon))).toBe('expired');
  });

  it('keeps at most maxEntries tokens, dropping the oldest', async () => {
    const { store, auth, mint } = await setup(5000, 2);
    const tokens = [await mint('a'), await mint('b'), await mint('c')];
    for (const t of tokens) await auth.authenticate(t);
    store.lookups = 0;
    await auth.authenticate(tokens[2]!);
    await auth.authenticate(tokens[1]!);
    expect(store.lookups).toBe(0);
    await auth.authenticate(tokens[0]!);
    expect(store.lookups).toBe(1);
  });

  it('hands every connection of a cached token one shared principal, and a fresh one after a new lookup', async () => {
    const { auth, mint } = await setup(5000);
    const expiresAt = clock.now() + 3_600_000;
    const token = await mint('shared', { sessionId: 's1', expiresAt });
    const first = await auth.authenticate(token);
    const second = await auth.authenticate(token);
    expect(second).toBe(first);
    expect(first).toEqual({
      id: 'token:shared',
      scopes: new Set(['pty:control']),
      instanceId: 'i',
      tokenId: 'shared',
      sessionId: 's1',
      expiresAt,
    });
    clock.advance(5001);
    const third = await auth.authenticate(token);
    expect(third).not.toBe(first);
    expect(third).toEqual(first);
  });
});
