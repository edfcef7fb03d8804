import { type Page, type Route } from 'playwright-core';

/**
 * The sign-in API's contract (issue 23, being built on the accounts branch), answered in the
 * browser until that branch lands: only `/v1/session…` is stubbed; every other request reaches the
 * real api. Signed-in pages then get the signed-in user's bearer token as a header, which is what a
 * browser session stands for ("a browser session behaves like a bearer token of the user").
 */
export interface SessionView {
  kind: 'tenant' | 'platform';
  via: 'browser' | 'token';
  account?: { id: string; email: string; name: string };
  tenant?: { slug: string; name: string };
  role: string;
  mustCreateAccount: boolean;
  csrfToken?: string;
  expiresAt: string;
}

export interface SessionStub {
  session?: SessionView;
  providers?: { local: boolean; oidc: { id: string; name: string }[] };
  /** Answers POST /v1/session/login; default: 401 invalid_credentials. */
  login?: (body: Record<string, unknown>) => { status: number; body?: unknown };
}

export const errorBody = (code: string, message: string) => ({ error: { code, message }, correlationId: 'stub' });

const json = (route: Route, status: number, body?: unknown) =>
  route.fulfill({
    status,
    contentType: 'application/json',
    body: body === undefined ? '' : JSON.stringify(body),
  });

export async function stubSessionApi(page: Page, stub: SessionStub): Promise<void> {
  await page.route(/\/v1\/session(\/|$|\?)/, async (route) => {
    const request = route.request();
    const path = new URL(request.url()).pathname;
    if (path === '/v1/session/providers') return json(route, 200, stub.providers ?? { local: true, oidc: [] });
    if (path === '/v1/session' && request.method() === 'GET') {
      return stub.session ? json(route, 200, stub.session) : json(route, 401, errorBody('unauthenticated', 'Sign in'));
    }
    if (path === '/v1/session/login') {
      const answer = stub.login?.(request.postDataJSON() as Record<string, unknown>) ?? {
        status: 401,
        body: errorBody('invalid_credentials', 'Wrong email or password'),
      };
      if (answer.status === 200) stub.session = answer.body as SessionView;
      return json(route, answer.status, answer.body);
    }
    if (path === '/v1/session/logout') {
      stub.session = undefined;
      return json(route, 204);
    }
    return json(route, 404, errorBody('not_found', `not stubbed: ${path}`));
  });
}

export function tenantSession(tenant: string, email: string, role = 'admin'): SessionView {
  return {
    kind: 'tenant',
    via: 'browser',
    account: { id: '00000000-0000-4000-8000-000000000001', email, name: 'Alice' },
    tenant: { slug: tenant, name: `Tenant ${tenant}` },
    role,
    mustCreateAccount: false,
    csrfToken: 'stub-csrf',
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  };
}
