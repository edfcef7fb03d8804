import { ROLES } from '@cairn/access';
import { loadConfig, type OidcProviderConfig } from '@cairn/config';
import { claimAt, identityFrom, roleFor } from './oidc-claims';

const provider: OidcProviderConfig = {
  id: 'keycloak',
  name: 'Keycloak',
  issuer: 'https://sso.example.com/realms/acme',
  clientId: 'cairn',
  clientSecret: 'x',
  scopes: ['openid', 'email', 'profile'],
  tenant: 'acme',
  emailClaim: 'email',
  requireVerifiedEmail: true,
  groupsClaim: 'groups',
  roles: { admins: 'admin', devs: 'member', bots: 'agent', auditors: 'reader', leads: 'orchestrator' },
  jitUsers: false,
};
const claims = { sub: 'f81d4fae', email: 'Ada@Example.com', email_verified: true, name: ' Ada\u0007  Lovelace ' };
const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { code: string }).code;
  }
  return undefined;
};

describe('the claims → identity mapping', () => {
  it('reads email (lower-cased), name, tenant and role', () => {
    expect(identityFrom(provider, { ...claims, groups: ['devs'] })).toEqual({
      subject: 'f81d4fae',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      tenant: 'acme',
      role: 'member',
    });
  });

  it('gives the first role of admin, member, orchestrator, agent, reader that a group maps to', () => {
    expect(roleFor(provider, { groups: ['auditors', 'bots', 'leads'] })).toBe('orchestrator');
    expect(roleFor(provider, { groups: ['devs', 'admins'] })).toBe('admin');
    expect(roleFor(provider, { groups: 'auditors' })).toBe('reader');
    expect(roleFor(provider, { groups: ['strangers', 7] })).toBeUndefined();
    expect(roleFor({ ...provider, defaultRole: 'reader' }, { groups: ['strangers'] })).toBe('reader');
    expect(roleFor({ ...provider, defaultRole: 'reader' }, {})).toBe('reader');
  });

  it('reads nested and namespaced claims (Keycloak realm roles, Auth0 namespaces)', () => {
    const nested = { realm_access: { roles: ['admins'] }, 'https://example.com/groups': ['devs'] };
    expect(claimAt(nested, 'realm_access.roles')).toEqual(['admins']);
    expect(claimAt(nested, 'https://example.com/groups')).toEqual(['devs']);
    expect(claimAt(nested, 'realm_access.missing.deeper')).toBeUndefined();
    expect(roleFor({ ...provider, groupsClaim: 'realm_access.roles' }, nested)).toBe('admin');
  });

  it('takes the tenant from a claim when told to, and refuses a missing or malformed one', () => {
    const byClaim = { ...provider, tenant: undefined, tenantClaim: 'org' };
    expect(identityFrom(byClaim, { ...claims, groups: ['devs'], org: 'globex' }).tenant).toBe('globex');
    expect(codeOf(() => identityFrom(byClaim, { ...claims, groups: ['devs'] }))).toBe('tenant_missing');
    expect(codeOf(() => identityFrom(byClaim, { ...claims, groups: ['devs'], org: 'Not A Slug' }))).toBe(
      'tenant_missing',
    );
  });

  it.each<[string, Partial<OidcProviderConfig>, Record<string, unknown>, string]>([
    ['no email', {}, { email: undefined }, 'email_missing'],
    ['a malformed email', {}, { email: 'ada' }, 'email_missing'],
    ['an unverified email', {}, { email_verified: false }, 'email_not_verified'],
    ['an email of another domain', { allowedDomains: ['acme.com'] }, {}, 'email_domain_not_allowed'],
    ['no group that gives a role', {}, { groups: ['strangers'] }, 'no_role'],
  ])('refuses %s', (_case, settings, changed, code) => {
    expect(codeOf(() => identityFrom({ ...provider, ...settings }, { ...claims, groups: ['devs'], ...changed }))).toBe(
      code,
    );
  });

  it('takes an unverified email when the provider does not vouch for emails, and another email claim', () => {
    const entra = { ...provider, requireVerifiedEmail: false, emailClaim: 'preferred_username' };
    const identity = identityFrom(entra, { sub: 'oid', preferred_username: 'ada@contoso.com', groups: ['devs'] });
    expect(identity).toMatchObject({ email: 'ada@contoso.com', name: 'ada' });
    expect(identityFrom({ ...provider, allowedDomains: ['example.com'] }, { ...claims, groups: ['devs'] }).email).toBe(
      'ada@example.com',
    );
  });
});

describe('the configuration of the mapping', () => {
  it('accepts every tenant role in OIDC_PROVIDERS (the config keeps its own copy of the list)', () => {
    const env = {
      DATABASE_URL: 'postgresql://cairn@db:5432/cairn',
      REDIS_URL: 'redis://redis:6379',
      CAIRN_ADMIN_TOKEN: 'a'.repeat(40),
      CAIRN_MASTER_KEY: 'b'.repeat(64),
      API_PUBLIC_URL: 'https://cairn.example.com',
      OIDC_CLIENT_SECRETS: JSON.stringify({ keycloak: 'x' }),
    };
    const roles = Object.fromEntries(ROLES.map((role) => [`group-${role}`, role]));
    const { clientSecret: _secret, ...settings } = { ...provider, roles, defaultRole: ROLES.at(-1) };
    const [loaded] = loadConfig('api', { ...env, OIDC_PROVIDERS: JSON.stringify([settings]) }).accounts.oidc.providers;
    expect(loaded.roles).toEqual(roles);
  });
});
