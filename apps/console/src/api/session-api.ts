import { api, ok } from './client';
import { type components } from './openapi';

/** The sign-in API (docs/sign-in.md), typed from the OpenAPI document like every other call. */
type Schemas = components['schemas'];
export type SessionView = Schemas['SessionViewDto_Output'];
export type Role = SessionView['role'];
export type Providers = Schemas['ProvidersDto_Output'];
export type LoginRequest = Schemas['LoginDto'];
export type TotpEnrolment = Schemas['TotpEnrolmentDto_Output'];
export type SessionList = Schemas['SessionListDto_Output'];

export const sessionApi = {
  providers: () => ok(api.GET('/v1/session/providers')),
  current: () => ok(api.GET('/v1/session')),
  login: (body: LoginRequest) => ok(api.POST('/v1/session/login', { body })),
  logout: () => ok(api.POST('/v1/session/logout')),
  logoutEverywhere: () => ok(api.POST('/v1/session/logout-everywhere')),
  bootstrap: (token: string) => ok(api.POST('/v1/session/bootstrap', { body: { token } })),
  createPlatformAccount: (body: Schemas['CreatePlatformAccountDto']) => ok(api.POST('/v1/platform/accounts', { body })),
  resetPassword: (token: string, password: string) =>
    ok(api.POST('/v1/session/password', { body: { token, password } })),
  startTotp: () => ok(api.POST('/v1/session/totp')),
  confirmTotp: (code: string) => ok(api.POST('/v1/session/totp/confirm', { body: { code } })),
  removeTotp: (code: string) => ok(api.DELETE('/v1/session/totp', { body: { code } })),
  sessions: () => ok(api.GET('/v1/session/list')),
  endSession: (id: string) => ok(api.DELETE('/v1/session/list/{id}', { params: { path: { id } } })),
};

/** Where the browser goes to sign in with an OIDC provider (a plain navigation, not a fetch). */
export function oidcStartUrl(id: string): string {
  return `/v1/session/oidc/${encodeURIComponent(id)}/start`;
}
