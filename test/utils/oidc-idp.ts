import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Real upstream identity providers for the OIDC sign-in tests: oidc-provider, a certified OpenID
 * Provider, in a child process (test/fixtures/oidc-idp.mjs), one issuer per loopback port. People
 * sign in through its own login and consent forms, driven over HTTP (apps/api/test/oidc-harness.ts)
 * or in chromium (apps/console/test/console-oidc.e2e-spec.ts).
 */

export interface IdpClient {
  readonly client_id: string;
  readonly client_secret: string;
  readonly redirect_uris: string[];
  /** Default `['authorization_code']`; `['client_credentials']` (with `response_types: []`) for a machine client. */
  readonly grant_types?: string[];
  readonly response_types?: string[];
  /** Scopes the client may ask for (`mcp` for access tokens of a resource). */
  readonly scope?: string;
  /**
   * The IdP re-signs this client's ID tokens: for another audience (a token meant for someone
   * else), or with a key it does not publish (a forged signature).
   */
  readonly tamper?: { readonly audience?: string; readonly foreignKey?: boolean };
}

export interface IdpIssuer {
  readonly name: string;
  /** The issuer claims to be this instead of the URL it is reached at. */
  readonly claimedIssuer?: string;
  readonly clients: IdpClient[];
}

export interface Idps {
  /** Each issuer's URL by name. */
  readonly urls: Readonly<Record<string, string>>;
  /** Creates or replaces a person at an issuer: the claims its tokens will carry. */
  setAccount(issuer: string, login: string, claims: Record<string, unknown>): Promise<void>;
  /** Claims added to the JWT access tokens a client gets (client_credentials tokens have no account). */
  setTokenClaims(issuer: string, clientId: string, claims: Record<string, unknown>): Promise<void>;
  /**
   * A JWT access token (RFC 9068) from the issuer's token endpoint by the client_credentials
   * grant, for the resource (RFC 8707 resource indicator; it becomes the audience).
   */
  clientCredentialsToken(
    issuer: string,
    client: { id: string; secret: string },
    resource: string,
    scope?: string,
  ): Promise<string>;
  /** The issuer signs with a new key from now on, and stops publishing the old one. */
  rotateKeys(issuer: string): Promise<void>;
  /** A JWT the issuer signs with its current key (or, `foreignKey`, a key it does not publish). */
  sign(
    issuer: string,
    payload: Record<string, unknown>,
    options?: { header?: Record<string, unknown>; foreignKey?: boolean },
  ): Promise<string>;
  close(): Promise<void>;
}

const FIXTURE = join(__dirname, '..', 'fixtures', 'oidc-idp.mjs');

export async function startIdps(issuers: IdpIssuer[]): Promise<Idps> {
  const spec = JSON.stringify({ issuers: issuers.map((issuer) => ({ ...issuer, accounts: {} })) });
  const child: ChildProcess = spawn(process.execPath, [FIXTURE, spec], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const urls = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((candidate) => candidate.startsWith('{"ready"'));
      if (line) resolve((JSON.parse(line) as { ready: Record<string, string> }).ready);
    });
    child.once('exit', (code) => reject(new Error(`the IdP fixture exited (${code}): ${errors}`)));
  });
  return {
    urls,
    async setAccount(issuer, login, claims) {
      const response = await fetch(`${urls[issuer]}/__test/accounts/${encodeURIComponent(login)}`, {
        method: 'POST',
        body: JSON.stringify(claims),
      });
      if (response.status !== 204) throw new Error(`set account: ${response.status}`);
    },
    async setTokenClaims(issuer, clientId, claims) {
      const response = await fetch(`${urls[issuer]}/__test/token-claims/${encodeURIComponent(clientId)}`, {
        method: 'POST',
        body: JSON.stringify(claims),
      });
      if (response.status !== 204) throw new Error(`set token claims: ${response.status}`);
    },
    async clientCredentialsToken(issuer, client, resource, scope = 'mcp') {
      const response = await fetch(`${urls[issuer]}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!response.ok || !body.access_token) {
        throw new Error(`client_credentials: ${response.status} ${body.error} ${body.error_description}`);
      }
      return body.access_token;
    },
    async rotateKeys(issuer) {
      const response = await fetch(`${urls[issuer]}/__test/rotate`, { method: 'POST' });
      if (response.status !== 204) throw new Error(`rotate: ${response.status}`);
    },
    async sign(issuer, payload, options = {}) {
      const response = await fetch(`${urls[issuer]}/__test/sign`, {
        method: 'POST',
        body: JSON.stringify({ payload, header: options.header, foreignKey: options.foreignKey }),
      });
      if (response.status !== 200) throw new Error(`sign: ${response.status}`);
      return ((await response.json()) as { token: string }).token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
