import { type McpAuthorizationServerConfig } from '@cairn/config';
import { mapClaims, scopesOf, subjectTokenId } from './external-claims';

const server: McpAuthorizationServerConfig = {
  issuer: 'https://sso.example.com/realms/acme',
  audience: 'https://cairn.example.com/mcp',
  algorithms: ['RS256'],
  tenantClaim: 'org',
  groupsClaim: 'realm_access.roles',
  roles: { 'cairn-readers': 'reader', 'cairn-admins': 'admin', engineers: 'member' },
  projectsClaim: 'projects',
  jwksCooldownSeconds: 30,
};

describe('external token claims', () => {
  it('maps tenant, the strongest mapped role and the projects', () => {
    const claims = { org: 'acme', realm_access: { roles: ['cairn-readers', 'engineers', 'other'] }, projects: ['web'] };
    expect(mapClaims(server, claims)).toEqual({ ok: true, tenant: 'acme', role: 'member', projects: ['web'] });
  });

  it('reads list claims written as one string, and * as every project', () => {
    const claims = { org: 'acme', realm_access: { roles: 'cairn-admins' }, projects: 'web, api docs' };
    expect(mapClaims(server, claims)).toMatchObject({ role: 'admin', projects: ['web', 'api', 'docs'] });
    expect(mapClaims(server, { ...claims, projects: ['*'] })).toMatchObject({ projects: '*' });
    expect(mapClaims({ ...server, projectsClaim: undefined }, claims)).toMatchObject({ projects: '*' });
  });

  it('uses a fixed tenant and the default role when set', () => {
    const fixed = { ...server, tenant: 'acme', tenantClaim: undefined, defaultRole: 'reader' as const };
    expect(mapClaims(fixed, { projects: ['web'] })).toEqual({
      ok: true,
      tenant: 'acme',
      role: 'reader',
      projects: ['web'],
    });
  });

  it('refuses a token with no tenant (401), no role or no project (403)', () => {
    const roles = { realm_access: { roles: ['engineers'] } };
    expect(mapClaims(server, { ...roles, org: 'Not A Slug', projects: ['web'] })).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(mapClaims(server, { org: 'acme', realm_access: { roles: ['x'] }, projects: ['web'] })).toMatchObject({
      ok: false,
      status: 403,
      code: 'no_role',
    });
    expect(mapClaims(server, { ...roles, org: 'acme', projects: ['../etc'] })).toMatchObject({
      ok: false,
      status: 403,
      code: 'no_projects',
    });
    expect(mapClaims(server, { ...roles, org: 'acme' })).toMatchObject({ ok: false, code: 'no_projects' });
  });

  it('reads scopes from scope (a string) and scp (Entra ID, an array)', () => {
    expect(scopesOf({ scope: 'openid mcp' })).toEqual(['openid', 'mcp']);
    expect(scopesOf({ scp: ['mcp.read'] })).toEqual(['mcp.read']);
    expect(scopesOf({})).toEqual([]);
  });

  it('gives each issuer and subject a stable UUID of its own', () => {
    const id = subjectTokenId(server.issuer, 'alice');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(subjectTokenId(server.issuer, 'alice')).toBe(id);
    expect(subjectTokenId(server.issuer, 'bob')).not.toBe(id);
    expect(subjectTokenId('https://other.example.com', 'alice')).not.toBe(id);
  });
});
