import { parseAuthChange, TokenCache } from './token-cache';
import { type TokenLookup } from './tokens.repository';

function lookup(overrides: Partial<TokenLookup> = {}): TokenLookup {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    tenantId: '00000000-0000-4000-8000-0000000000aa',
    tenantSlug: 'acme',
    tenantName: 'Acme',
    tenantSchema: 't_acme',
    tenantDeleted: false,
    tenantSuspended: false,
    userId: '00000000-0000-4000-8000-0000000000bb',
    userRole: 'member',
    userDisabled: false,
    agentId: null,
    role: 'member',
    projects: ['*'],
    toolsets: null,
    defaultProject: null,
    createdAt: new Date(0),
    expiresAt: new Date(8.64e15),
    revokedAt: null,
    ...overrides,
  };
}

describe('TokenCache', () => {
  let now = 1_000;
  const clock = () => now;
  const hash = Buffer.from('a');
  const other = Buffer.from('b');

  beforeEach(() => {
    now = 1_000;
  });

  function trusted(ttl = 60_000): TokenCache {
    const cache = new TokenCache(ttl, clock);
    cache.trustUntil(now + 25_000);
    return cache;
  }

  it('answers nothing until the listener has proven that notices arrive, and stores nothing either', () => {
    const cache = new TokenCache(60_000, clock);
    cache.store(hash, lookup(), cache.mark);
    expect(cache.get(hash)).toBeUndefined();
    cache.trustUntil(now + 25_000);
    expect(cache.get(hash)).toBeUndefined();
    cache.store(hash, lookup(), cache.mark);
    expect(cache.get(hash)?.id).toBe(lookup().id);
  });

  it('stops answering when the proof lapses, and forgets everything on distrust', () => {
    const cache = trusted();
    cache.store(hash, lookup(), cache.mark);
    now += 25_000;
    expect(cache.get(hash)).toBeUndefined();
    cache.trustUntil(now + 25_000);
    expect(cache.get(hash)).toBeDefined();
    cache.distrust();
    cache.trustUntil(now + 25_000);
    expect(cache.get(hash)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not store a lookup that straddled a change notice (it may predate the change)', () => {
    const cache = trusted();
    const mark = cache.mark;
    cache.forget({ kind: 'token', id: '00000000-0000-4000-8000-00000000ffff' });
    cache.store(hash, lookup(), mark);
    expect(cache.get(hash)).toBeUndefined();
  });

  it('forgets by token, by user and by tenant, and only what the change names', () => {
    const cache = trusted();
    const second = lookup({ id: '00000000-0000-4000-8000-000000000002', userId: null, tenantId: 'other-tenant' });
    const store = () => {
      cache.store(hash, lookup(), cache.mark);
      cache.store(other, second, cache.mark);
    };
    store();
    cache.forget({ kind: 'token', id: lookup().id });
    expect([cache.get(hash), cache.get(other)?.id]).toEqual([undefined, second.id]);
    store();
    cache.forget({ kind: 'user', id: lookup().userId! });
    expect([cache.get(hash), cache.get(other)?.id]).toEqual([undefined, second.id]);
    store();
    cache.forget({ kind: 'tenant', id: 'other-tenant' });
    expect([cache.get(hash)?.id, cache.get(other)]).toEqual([lookup().id, undefined]);
  });

  it('ages entries out after the configured time, and a TTL of 0 turns it off', () => {
    const cache = trusted(5_000);
    cache.store(hash, lookup(), cache.mark);
    now += 4_999;
    expect(cache.get(hash)).toBeDefined();
    now += 1;
    expect(cache.get(hash)).toBeUndefined();
    const off = trusted(0);
    off.store(hash, lookup(), off.mark);
    expect(off.trusted).toBe(false);
    expect(off.get(hash)).toBeUndefined();
  });

  it('stays bounded: the oldest entry makes room', () => {
    const cache = trusted();
    for (let i = 0; i < 10_001; i++) cache.store(Buffer.from(`token-${i}`), lookup(), cache.mark);
    expect(cache.size).toBe(10_000);
    expect(cache.get(Buffer.from('token-0'))).toBeUndefined();
    expect(cache.get(Buffer.from('token-10000'))).toBeDefined();
  });
});

describe('parseAuthChange', () => {
  it('reads the notices the triggers send and nothing else', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(parseAuthChange(`token:${id}`)).toEqual({ kind: 'token', id });
    expect(parseAuthChange(`user:${id.toUpperCase()}`)).toEqual({ kind: 'user', id });
    expect(parseAuthChange(`tenant:${id}`)).toEqual({ kind: 'tenant', id });
    for (const payload of ['probe:x', `token:${id}x`, `group:${id}`, '', undefined]) {
      expect(parseAuthChange(payload)).toBeUndefined();
    }
  });
});
