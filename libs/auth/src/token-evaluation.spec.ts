import { ROLES, roleWithin } from '@cairn/access';
import { effectiveRole, evaluateToken } from './token-evaluation';
import { type TokenLookup } from './tokens.repository';

const now = new Date('2026-06-01T12:00:00Z');
const base: TokenLookup = {
  id: '00000000-0000-4000-8000-000000000001',
  tenantId: '00000000-0000-4000-8000-000000000002',
  tenantSlug: 'acme',
  tenantName: 'Acme',
  tenantSchema: 't_abc',
  tenantDeleted: false,
  tenantSuspended: false,
  toolsets: null,
  defaultProject: null,
  userId: null,
  userRole: null,
  userDisabled: false,
  agentId: 'claude-code:alice',
  role: 'agent',
  projects: ['web-app'],
  createdAt: new Date('2026-05-01T00:00:00Z'),
  expiresAt: new Date('2026-07-01T00:00:00Z'),
  revokedAt: null,
};

describe('evaluateToken', () => {
  it('accepts a live token with its scope', () => {
    const result = evaluateToken(base, now);
    expect(result).toMatchObject({ active: true, principal: { role: 'agent', projects: ['web-app'] } });
  });

  it.each<[string, Partial<TokenLookup>, string]>([
    ['revoked', { revokedAt: new Date('2026-05-02T00:00:00Z') }, 'token_revoked'],
    ['of a deleted tenant', { tenantDeleted: true }, 'token_revoked'],
    ['expired', { expiresAt: new Date('2026-06-01T11:59:59Z') }, 'token_expired'],
    ['expiring this instant', { expiresAt: now }, 'token_expired'],
    ['of a disabled user', { userId: 'u', userRole: 'member', userDisabled: true }, 'user_disabled'],
    ['of a suspended tenant', { tenantSuspended: true }, 'tenant_suspended'],
  ])('refuses a token %s', (_name, change, code) => {
    expect(evaluateToken({ ...base, ...change }, now)).toMatchObject({ active: false, code });
  });

  it('refuses an unknown token', () => {
    expect(evaluateToken(undefined, now)).toMatchObject({ active: false, code: 'invalid_token' });
  });

  it('maps the stored "*" scope to every project', () => {
    expect(evaluateToken({ ...base, projects: ['*'] }, now)).toMatchObject({ principal: { projects: '*' } });
  });

  it('defaults tool calls to the only project, or to the named default', () => {
    expect(evaluateToken(base, now)).toMatchObject({ principal: { defaultProject: 'web-app' } });
    expect(evaluateToken({ ...base, projects: ['a', 'b'] }, now)).toMatchObject({
      principal: { defaultProject: null },
    });
    expect(evaluateToken({ ...base, projects: ['*'], defaultProject: 'b' }, now)).toMatchObject({
      principal: { defaultProject: 'b' },
    });
  });

  it('enables the default toolsets unless the token names its own, ignoring unknown names', () => {
    expect(evaluateToken(base, now)).toMatchObject({ principal: { toolsets: ['core', 'context', 'knowledge'] } });
    expect(evaluateToken({ ...base, toolsets: ['maintenance', 'retired'] }, now)).toMatchObject({
      principal: { toolsets: ['maintenance'] },
    });
  });
});

describe('effectiveRole', () => {
  it('caps a token at its user current role', () => {
    expect(effectiveRole('admin', 'member')).toBe('member');
    expect(effectiveRole('agent', 'admin')).toBe('agent');
    expect(effectiveRole('admin', null)).toBe('admin');
  });

  it('never exceeds the user, for every pair of roles', () => {
    for (const tokenRole of ROLES) {
      for (const userRole of ROLES) {
        expect(roleWithin(effectiveRole(tokenRole, userRole), userRole)).toBe(true);
      }
    }
  });
});
