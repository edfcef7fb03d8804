import { request } from './client';

/**
 * The sign-in API (issue 23, built on the accounts branch): typed by hand from its contract
 * until the committed OpenAPI document has these routes; then `npm run console:openapi` types them.
 */
export type Role = 'admin' | 'member' | 'orchestrator' | 'agent' | 'reader';

export interface SessionView {
  readonly kind: 'tenant' | 'platform';
  readonly via: 'browser' | 'token';
  readonly account?: { readonly id: string; readonly email: string; readonly name: string };
  readonly tenant?: { readonly slug: string; readonly name: string };
  readonly role: Role;
  readonly mustCreateAccount: boolean;
  readonly csrfToken?: string;
  readonly expiresAt: string;
}

export interface Providers {
  readonly local: boolean;
  readonly oidc: readonly { readonly id: string; readonly name: string }[];
}

export interface LoginRequest {
  readonly tenant?: string;
  readonly email: string;
  readonly password: string;
  readonly totp?: string;
}

export const sessionApi = {
  providers: () => request<Providers>('GET', '/v1/session/providers'),
  current: () => request<SessionView>('GET', '/v1/session'),
  login: (body: LoginRequest) => request<SessionView>('POST', '/v1/session/login', body),
  logout: () => request<void>('POST', '/v1/session/logout'),
  bootstrap: (token: string) => request<SessionView>('POST', '/v1/session/bootstrap', { token }),
  createPlatformAccount: (body: { email: string; name: string; password: string }) =>
    request<unknown>('POST', '/v1/platform/accounts', body),
  resetPassword: (token: string, password: string) =>
    request<void>('POST', '/v1/session/password', { token, password }),
  startTotp: () => request<{ secret: string; otpauthUrl: string }>('POST', '/v1/session/totp'),
  confirmTotp: (code: string) => request<unknown>('POST', '/v1/session/totp/confirm', { code }),
  removeTotp: (code: string) => request<unknown>('DELETE', '/v1/session/totp', { code }),
};

/** Where the browser goes to sign in with an OIDC provider (a plain navigation, not a fetch). */
export function oidcStartUrl(id: string): string {
  return `/v1/session/oidc/${encodeURIComponent(id)}/start`;
}
