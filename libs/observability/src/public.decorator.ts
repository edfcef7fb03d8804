import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'cairn:public-route';

/**
 * Declares a route that needs no credentials (health, readiness, metrics). Every other
 * route must declare a permission; the access guard denies routes that declare neither.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

export const CHECKS_CREDENTIALS = 'cairn:checks-credentials';

/**
 * A public route that checks credentials itself (sign-in, bootstrap): it answers 401 and 403
 * for credentials it refuses and 429 when sign-in attempts are throttled, and the OpenAPI
 * document says so as it does for authenticated routes.
 */
export const ChecksCredentials = (): MethodDecorator => SetMetadata(CHECKS_CREDENTIALS, true);

export const REDIRECTS_ERRORS = 'cairn:redirects-errors';

/**
 * A route a browser navigates to (OIDC sign-in's start and callback) that answers every
 * refusal with a redirect to a page that explains it, never with an error body: the OpenAPI
 * document then lists no error responses for it.
 */
export const RedirectsErrors = (): MethodDecorator => SetMetadata(REDIRECTS_ERRORS, true);
