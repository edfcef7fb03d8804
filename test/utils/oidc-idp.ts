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
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
