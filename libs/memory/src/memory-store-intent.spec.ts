import { type SessionPrincipal } from '@cairn/access';
import { type StoreMemoryInput } from './contract/memory-write.types';
import { storeIntent } from './memory-store-intent';

const principal = (overrides: Partial<SessionPrincipal> = {}): SessionPrincipal => ({
  kind: 'session',
  tokenId: '00000000-0000-4000-8000-0000000000a1',
  tenant: { id: '00000000-0000-4000-8000-000000000001', slug: 'acme', schema: 't_acme', name: 'Acme' },
  role: 'agent',
  userId: null,
  agentId: 'claude',
  projects: ['web'],
  defaultProject: 'web',
  toolsets: [],
  expiresAt: new Date(Date.now() + 60_000),
  ...overrides,
});

const input = (overrides: Partial<StoreMemoryInput> = {}): StoreMemoryInput => ({
  content: 'The API uses Fastify',
  category: 'fact',
  tags: ['api'],
  keywords: [],
  importance: 3,
  confidence: 0.8,
  source: null,
  pinned: false,
  supersedes: [],
  ...overrides,
});

describe('storeIntent: what a store asks for, before any work', () => {
  it('leaves the scope to the default unless the store names one, and spells tenant-wide as a team memory', () => {
    expect(storeIntent('web', principal(), input())).toEqual({
      claim: undefined,
      named: undefined,
      tenantWide: false,
      sensitive: false,
    });
    expect(storeIntent('web', principal(), input({ scope: 'private', sensitive: true }))).toMatchObject({
      named: 'private',
      sensitive: true,
    });
    const admin = principal({ role: 'admin', projects: '*' });
    expect(storeIntent('web', admin, input({ scope: 'tenant' }))).toMatchObject({ named: 'team', tenantWide: true });
  });

  it('refuses a team memory from an agent and a tenant-wide one from a token scoped to some projects', () => {
    expect(() => storeIntent('web', principal(), input({ scope: 'team' }))).toThrow(
      expect.objectContaining({ code: 'team_scope_forbidden', status: 403 }),
    );
    expect(() => storeIntent('web', principal({ role: 'admin' }), input({ scope: 'tenant' }))).toThrow(
      expect.objectContaining({ code: 'scope_too_narrow', status: 403 }),
    );
    expect(storeIntent('web', principal({ role: 'orchestrator' }), input({ scope: 'team' })).named).toBe('team');
  });

  it('digests the validated input with its project, so only the same store repeats under a key', () => {
    const claim = (slug: string, given: StoreMemoryInput) => storeIntent(slug, principal(), given, 'key-1').claim;
    const first = claim('web', input());
    expect(first).toEqual({ key: 'key-1', digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Key order and undefined fields do not matter (canonical JSON of what JSON would carry).
    const reordered = Object.fromEntries(Object.entries(input()).reverse()) as unknown as StoreMemoryInput;
    expect(claim('web', reordered)).toEqual(first);
    expect(claim('web', { ...input(), occurredAt: undefined })).toEqual(first);
    expect(claim('web', input({ content: 'The API uses Express' }))?.digest).not.toBe(first?.digest);
    expect(claim('api', input())?.digest).not.toBe(first?.digest);
  });
});
