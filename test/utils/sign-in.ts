import { createTenant, createUser, uniqueSlug } from './factories';
import { type TestClient, type TestResponse } from './http-client';
import { Secret, TOTP } from 'otpauth';

export const PASSWORD = 'correct horse battery staple';
export const SESSION_COOKIE = '__Host-cairn_session';

/** The session cookie's value a response sets ('' when it clears it, undefined when it sets none). */
export function cookieSet(response: TestResponse, name = SESSION_COOKIE): string | undefined {
  const header = response.headers['set-cookie'];
  const values = Array.isArray(header) ? header : header === undefined ? [] : [String(header)];
  const mine = values.find((value) => value.startsWith(`${name}=`));
  return mine === undefined ? undefined : mine.slice(name.length + 1).split(';')[0];
}

/** A browser: sends the session cookie (and the CSRF token once it knows it), like the console does. */
export class Browser {
  constructor(
    private readonly client: TestClient,
    readonly cookie: string,
    readonly csrf: string | undefined,
    private readonly name = SESSION_COOKIE,
  ) {}

  request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    return this.client.request(method, url, body, {
      cookie: `${this.name}=${this.cookie}`,
      ...(this.csrf ? { 'x-csrf-token': this.csrf } : {}),
      ...headers,
    });
  }
  get(url: string) {
    return this.request('GET', url);
  }
  post(url: string, body?: unknown) {
    return this.request('POST', url, body);
  }
  delete(url: string, body?: unknown) {
    return this.request('DELETE', url, body);
  }
  /** The same session without the CSRF header (what a forged cross-site request would look like). */
  withoutCsrf(): Browser {
    return new Browser(this.client, this.cookie, undefined, this.name);
  }
}

/** Signs in; fails the test unless it succeeds. */
export async function signIn(
  client: TestClient,
  body: { tenant?: string; email: string; password?: string; totp?: string },
  headers: Record<string, string> = {},
  name = SESSION_COOKIE,
): Promise<Browser> {
  const response = await client.request('POST', '/v1/session/login', { password: PASSWORD, ...body }, headers);
  if (response.status !== 200) throw new Error(`sign-in: ${response.status} ${JSON.stringify(response.body)}`);
  return new Browser(client, cookieSet(response, name) as string, response.body.csrfToken, name);
}

/** A one-time password link's secret, as the admin hands it over. */
export async function passwordLink(admin: TestClient, tenant: string, userId: string): Promise<string> {
  const response = await admin.post(`/v1/tenants/${tenant}/users/${userId}/password-link`);
  if (response.status !== 201) throw new Error(`password link: ${response.status} ${JSON.stringify(response.body)}`);
  return String(response.body.url).split('#token=')[1];
}

/** A tenant and a user of `role` with a password set through a link. */
export async function personWithPassword(admin: TestClient, client: TestClient, role: string, tenantSlug?: string) {
  const tenant = tenantSlug ?? (await createTenant(admin, uniqueSlug('acct'))).slug;
  const user = await createUser(admin, tenant, role);
  const token = await passwordLink(admin, tenant, user.id);
  const set = await client.post('/v1/session/password', { token, password: PASSWORD });
  if (set.status !== 204) throw new Error(`set password: ${set.status} ${JSON.stringify(set.body)}`);
  return { tenant, user };
}

/** The current code of a TOTP secret, `offsetSteps` steps away. */
export function totpCode(secret: string, offsetSteps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + offsetSteps * 30_000 });
}
