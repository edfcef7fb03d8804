import { PASSWORD } from '@cairn/testing';
import { CookieJar, type OAuthWorld } from './oauth-harness';

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

export interface Person {
  readonly tenant: string;
  readonly user: { readonly id: string; readonly email: string };
  readonly projects: readonly string[];
}

/** RFC 7591 registration of a public client, as MCP clients do it; answers the client id. */
export async function registerClient(world: OAuthWorld, name: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${world.issuer}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  if (response.status !== 201) throw new Error(`registration: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** The token endpoint, form-encoded as RFC 6749 wants. */
export async function tokenRequest(world: OAuthWorld, values: Record<string, string>) {
  const response = await fetch(`${world.issuer}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(values).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

export function authorizationUrl(
  world: OAuthWorld,
  clientId: string,
  challenge: string,
  extra: Record<string, string> = {},
) {
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'mcp',
    state: 'st-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: world.resource,
    ...extra,
  });
  return `${world.issuer}/oauth/authorize?${query.toString()}`;
}

/** Starts an authorization request in a fresh browser and signs the person in; answers the interaction. */
export async function startAuthorization(world: OAuthWorld, person: Person, clientId: string, challenge: string) {
  const browser = new CookieJar();
  const start = await browser.fetch(authorizationUrl(world, clientId, challenge));
  if (start.status !== 303) throw new Error(`authorize: ${start.status}`);
  const interaction = new URL(start.headers.get('location') as string, world.issuer);
  const login = await browser.fetch(`${world.issuer}/v1/session/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tenant: person.tenant, email: person.user.email, password: PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`sign-in: ${login.status}`);
  const csrf = ((await login.json()) as { csrfToken: string }).csrfToken;
  const post = (path: string, body?: unknown) =>
    browser.fetch(`${interaction.href}${path}`, {
      method: 'POST',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'x-csrf-token': csrf },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { browser, csrf, interaction, uid: interaction.pathname.split('/').pop() as string, post };
}
