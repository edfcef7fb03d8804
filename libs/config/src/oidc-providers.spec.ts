import { randomBytes } from 'node:crypto';
import { ConfigurationError, loadConfig } from './load-config';

const valid = {
  DATABASE_URL: 'postgresql://cairn@db:5432/cairn',
  REDIS_URL: 'redis://redis:6379',
  CAIRN_ADMIN_TOKEN: 'a'.repeat(40),
  CAIRN_MASTER_KEY: randomBytes(32).toString('base64'),
};
const SECRET = 'oidc-client-secret-never-printed';
const keycloak = {
  id: 'keycloak',
  name: 'Keycloak',
  issuer: 'https://sso.example.com/realms/acme',
  clientId: 'cairn',
  tenant: 'acme',
  roles: { 'cairn-admins': 'admin', engineers: 'member' },
};
const withProviders = (providers: unknown, secrets: unknown = { keycloak: SECRET }) => ({
  ...valid,
  API_PUBLIC_URL: 'https://cairn.example.com/',
  OIDC_PROVIDERS: JSON.stringify(providers),
  OIDC_CLIENT_SECRETS: JSON.stringify(secrets),
});

function problemsOf(env: Record<string, string | undefined>): string {
  try {
    loadConfig('api', env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigurationError');
}

describe('OIDC_PROVIDERS', () => {
  it('is empty by default', () => {
    expect(loadConfig('api', valid).accounts.oidc).toEqual({ publicUrl: undefined, providers: [] });
  });

  it('reads providers with their defaults and secrets, and the public URL without its trailing slash', () => {
    const { oidc } = loadConfig('api', withProviders([keycloak])).accounts;
    expect(oidc.publicUrl).toBe('https://cairn.example.com');
    expect(oidc.providers).toEqual([
      {
        ...keycloak,
        clientSecret: SECRET,
        scopes: ['openid', 'email', 'profile'],
        emailClaim: 'email',
        requireVerifiedEmail: true,
        groupsClaim: 'groups',
        jitUsers: false,
      },
    ]);
  });

  it('gives the other apps no providers, and does not ask them for the secrets they never get', () => {
    const env = { ...withProviders([keycloak]), OIDC_CLIENT_SECRETS: undefined };
    expect(loadConfig('worker', env).accounts.oidc.providers).toEqual([]);
    expect(problemsOf(env)).toContain('OIDC_CLIENT_SECRETS has no secret for OIDC provider "keycloak"');
  });

  it('takes a tenant claim, a loopback http issuer and a default role', () => {
    const local = {
      ...keycloak,
      issuer: 'http://127.0.0.1:8180/realms/dev',
      tenant: undefined,
      tenantClaim: 'cairn_tenant',
      roles: undefined,
      defaultRole: 'reader',
    };
    const [provider] = loadConfig('api', withProviders([local])).accounts.oidc.providers;
    expect(provider).toMatchObject({ tenantClaim: 'cairn_tenant', defaultRole: 'reader', roles: {} });
  });

  it.each<[string, unknown, string]>([
    ['not JSON', '{oops', 'OIDC_PROVIDERS must be an array of providers in JSON'],
    ['not an array', { id: 'x' }, 'OIDC_PROVIDERS Invalid input: expected array'],
    ['an http issuer off loopback', [{ ...keycloak, issuer: 'http://sso.example.com' }], 'OIDC_PROVIDERS.0.issuer'],
    ['an issuer with a query', [{ ...keycloak, issuer: 'https://sso.example.com/?x=1' }], 'OIDC_PROVIDERS.0.issuer'],
    [
      'both tenant and tenantClaim',
      [{ ...keycloak, tenantClaim: 'org' }],
      'give exactly one of tenant (a slug) and tenantClaim',
    ],
    ['neither tenant nor tenantClaim', [{ ...keycloak, tenant: undefined }], 'give exactly one of tenant'],
    [
      'a malformed tenant slug',
      [{ ...keycloak, tenant: 'Acme Corp' }],
      'OIDC_PROVIDERS.0.tenant must be a tenant slug',
    ],
    ['an unknown role', [{ ...keycloak, roles: { x: 'owner' } }], 'OIDC_PROVIDERS.0.roles.x must be one of admin'],
    ['no role at all', [{ ...keycloak, roles: {} }], 'give roles (group → role) or defaultRole'],
    ['scopes without openid', [{ ...keycloak, scopes: ['email'] }], 'OIDC_PROVIDERS.0.scopes must include openid'],
    ['an unknown key', [{ ...keycloak, jit: true }], 'OIDC_PROVIDERS.0 Unrecognized key: "jit"'],
    ['a bad id', [{ ...keycloak, id: 'Key Cloak' }], 'OIDC_PROVIDERS.0.id must be 1-32 lower-case letters'],
    ['a duplicate id', [keycloak, keycloak], 'OIDC_PROVIDERS.1.id "keycloak" is used twice'],
    [
      'a client secret in the list',
      [{ ...keycloak, clientSecret: SECRET }],
      'OIDC_PROVIDERS.0.clientSecret does not belong here: put client secrets in OIDC_CLIENT_SECRETS',
    ],
  ])('refuses %s, naming the variable', (_case, providers, message) => {
    const env = withProviders([]);
    const text = typeof providers === 'string' ? providers : JSON.stringify(providers);
    const problems = problemsOf({ ...env, OIDC_PROVIDERS: text });
    expect(problems).toContain(message);
    expect(problems).not.toContain(SECRET);
  });

  it('needs API_PUBLIC_URL and a secret for each provider, and no secret for an unknown one', () => {
    expect(problemsOf({ ...withProviders([keycloak]), API_PUBLIC_URL: undefined })).toContain(
      'API_PUBLIC_URL is required with OIDC_PROVIDERS',
    );
    const problems = problemsOf(withProviders([keycloak], { keycloak: SECRET, google: 'another-secret-value' }));
    expect(problems).toContain('OIDC_CLIENT_SECRETS names "google", which OIDC_PROVIDERS does not list');
    expect(problems).not.toContain('another-secret-value');
  });

  it('never prints the secrets, even when their JSON is malformed', () => {
    const broken = `{"keycloak": "${SECRET}"`;
    const problems = problemsOf({ ...withProviders([keycloak]), OIDC_CLIENT_SECRETS: broken });
    expect(problems).toContain('OIDC_CLIENT_SECRETS must be an object of provider id → client secret in JSON');
    expect(problems).not.toContain(SECRET);
    expect(problemsOf({ ...withProviders([keycloak], { keycloak: 42 }) })).toContain('OIDC_CLIENT_SECRETS.keycloak');
  });
});
