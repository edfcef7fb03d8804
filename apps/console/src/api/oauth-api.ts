import { api, ok } from './client';
import { type components } from './openapi';

/**
 * Cairn's OAuth authorization server as the console sees it (docs/oauth.md): the consent step of
 * an authorization request, and the grants ("connected applications") it leaves. The consent
 * calls go to the interaction's own path, the only one its cookie (set by the authorization
 * server for this browser) is sent to.
 */
type Schemas = components['schemas'];
export type ConsentDetails = Schemas['ConsentDetailsDto_Output'];
export type ConsentChoice = Schemas['ConsentDto'];
export type ConsentRole = ConsentDetails['maxRole'];
export type Grant = Schemas['GrantListDto_Output']['items'][number];

const interaction = (uid: string) => ({ params: { path: { uid } } });

export const oauthApi = {
  details: (uid: string) => ok(api.GET('/v1/oauth/interactions/{uid}/details', interaction(uid))),
  allow: (uid: string, body: ConsentChoice) =>
    ok(api.POST('/v1/oauth/interactions/{uid}/consent', { ...interaction(uid), body })),
  deny: (uid: string) => ok(api.POST('/v1/oauth/interactions/{uid}/deny', interaction(uid))),
  ownGrants: () => ok(api.GET('/v1/session/oauth-grants')),
  revokeOwn: (id: string) => ok(api.DELETE('/v1/session/oauth-grants/{id}', { params: { path: { id } } })),
  tenantGrants: (slug: string) => ok(api.GET('/v1/tenants/{slug}/oauth-grants', { params: { path: { slug } } })),
  revokeInTenant: (slug: string, id: string) =>
    ok(api.DELETE('/v1/tenants/{slug}/oauth-grants/{id}', { params: { path: { slug, id } } })),
};
