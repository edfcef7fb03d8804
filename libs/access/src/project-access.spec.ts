import { type SessionPrincipal } from './principal';
import { assertProjectAccess, assertScopeWithin, searchScope } from './project-access';

const principal = (projects: '*' | string[]): SessionPrincipal => ({
  kind: 'session',
  tokenId: 't',
  tenant: { id: 'x', slug: 'acme', schema: 't_x', name: 'Acme' },
  role: 'agent',
  userId: null,
  agentId: null,
  defaultProject: null,
  toolsets: [],
  projects,
  expiresAt: new Date(),
});

describe('project access', () => {
  it('searches the token scope, narrowed but never widened by the request', () => {
    expect(searchScope(principal('*'), undefined)).toEqual({ scope: '*', ignored: 0 });
    expect(searchScope(principal('*'), ['bbb', 'bbb'])).toEqual({ scope: ['bbb'], ignored: 0 });
    expect(searchScope(principal(['aaa']), undefined)).toEqual({ scope: ['aaa'], ignored: 0 });
    expect(searchScope(principal(['aaa']), ['bbb'])).toEqual({ scope: [], ignored: 1 });
    expect(searchScope(principal(['aaa', 'ccc']), ['aaa', 'bbb'])).toEqual({ scope: ['aaa'], ignored: 1 });
  });

  it('refuses a project outside the token scope', () => {
    expect(() => assertProjectAccess(principal(['aaa']), 'bbb')).toThrow(/may not use project "bbb"/);
    expect(() => assertProjectAccess(principal('*'), 'bbb')).not.toThrow();
  });

  it('lets a token act on token scopes only within its own', () => {
    expect(() => assertScopeWithin(principal(['aaa', 'bbb']), ['aaa'])).not.toThrow();
    expect(() => assertScopeWithin(principal(['aaa']), ['aaa', 'bbb'])).toThrow(/may not use project "bbb"/);
    expect(() => assertScopeWithin(principal(['aaa']), '*')).toThrow(/cannot act on every project/);
    expect(() => assertScopeWithin(principal(['aaa']), ['*'])).toThrow(/cannot act on every project/);
    expect(() => assertScopeWithin(principal('*'), '*')).not.toThrow();
    expect(() => assertScopeWithin({ kind: 'platform' }, '*')).not.toThrow();
  });
});
