import { randomBytes } from 'node:crypto';
import { ConfigurationError, loadConfig } from './load-config';

const valid = {
  DATABASE_URL: 'postgresql://cairn@db:5432/cairn',
  REDIS_URL: 'redis://redis:6379',
  CAIRN_MASTER_KEY: randomBytes(32).toString('base64'),
  MCP_PUBLIC_URL: 'https://cairn.example.com/',
};
const keycloak = {
  issuer: 'https://sso.example.com/realms/acme',
  tenant: 'acme',
  roles: { 'cairn-agents': 'agent' },
};
const withServers = (servers: unknown) => ({
  ...valid,
  MCP_AUTHORIZATION_SERVERS: typeof servers === 'string' ? servers : JSON.stringify(servers),
});

function problemsOf(env: Record<string, string | undefined>): string {
  try {
    loadConfig('mcp-gateway', env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigurationError');
}

describe('MCP_AUTHORIZATION_SERVERS', () => {
  it('is empty by default: session tokens only', () => {
    expect(loadConfig('mcp-gateway', valid).mcp.authorizationServers).toEqual([]);
  });

  it('reads servers with their defaults, the audience being the MCP resource', () => {
    expect(loadConfig('mcp-gateway', withServers([keycloak])).mcp.authorizationServers).toEqual([
      {
        ...keycloak,
        audience: 'https://cairn.example.com/mcp',
        algorithms: ['RS256', 'ES256'],
        groupsClaim: 'groups',
        jwksCooldownSeconds: 30,
      },
    ]);
  });

  it('takes a claim for the tenant and projects, an audience of its own, a scope and a default role', () => {
    const server = {
      issuer: 'http://127.0.0.1:8180/realms/dev',
      audience: 'api://cairn',
      algorithms: ['PS256', 'EdDSA'],
      tenantClaim: 'org',
      groupsClaim: 'realm_access.roles',
      defaultRole: 'reader',
      projectsClaim: 'cairn_projects',
      requiredScope: 'cairn:mcp',
    };
    const env = { ...withServers([server]), MCP_PUBLIC_URL: undefined };
    expect(loadConfig('mcp-gateway', env).mcp.authorizationServers).toEqual([
      { ...server, roles: {}, jwksCooldownSeconds: 30 },
    ]);
  });

  it('gives the other apps no servers', () => {
    expect(loadConfig('worker', withServers([keycloak])).mcp.authorizationServers).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['not JSON', '[{oops', 'MCP_AUTHORIZATION_SERVERS must be an array of authorization servers in JSON'],
    ['not an array', { issuer: 'x' }, 'MCP_AUTHORIZATION_SERVERS Invalid input: expected array'],
    ['alg none', [{ ...keycloak, algorithms: ['none'] }], 'MCP_AUTHORIZATION_SERVERS.0.algorithms.0 must be one of'],
    ['HS256', [{ ...keycloak, algorithms: ['RS256', 'HS256'] }], 'none and HS* are never accepted'],
    ['no algorithm', [{ ...keycloak, algorithms: [] }], 'MCP_AUTHORIZATION_SERVERS.0.algorithms'],
    [
      'an http issuer off loopback',
      [{ ...keycloak, issuer: 'http://sso.example.com' }],
      'MCP_AUTHORIZATION_SERVERS.0.issuer',
    ],
    ['both tenant and tenantClaim', [{ ...keycloak, tenantClaim: 'org' }], 'give exactly one of tenant'],
    ['neither tenant nor tenantClaim', [{ ...keycloak, tenant: undefined }], 'give exactly one of tenant'],
    ['an unknown role', [{ ...keycloak, roles: { x: 'owner' } }], 'MCP_AUTHORIZATION_SERVERS.0.roles.x must be one of'],
    ['no role at all', [{ ...keycloak, roles: {} }], 'give roles (group → role) or defaultRole'],
    ['a malformed scope', [{ ...keycloak, requiredScope: 'a b' }], 'MCP_AUTHORIZATION_SERVERS.0.requiredScope'],
    ['an unknown key', [{ ...keycloak, secret: 'x' }], 'MCP_AUTHORIZATION_SERVERS.0 Unrecognized key: "secret"'],
    ['a duplicate issuer', [keycloak, keycloak], 'MCP_AUTHORIZATION_SERVERS.1.issuer'],
  ])('refuses %s, naming the variable', (_case, servers, message) => {
    expect(problemsOf(withServers(servers))).toContain(message);
  });

  it('needs MCP_PUBLIC_URL for a server without an audience of its own', () => {
    expect(problemsOf({ ...withServers([keycloak]), MCP_PUBLIC_URL: undefined })).toContain(
      'MCP_PUBLIC_URL is required with MCP_AUTHORIZATION_SERVERS unless every server names its audience',
    );
  });

  it('never prints the text of a malformed value', () => {
    const text = '[{"issuer": "https://sso.example.com", "note": "do-not-print-me"';
    expect(problemsOf(withServers(text))).not.toContain('do-not-print-me');
  });
});
