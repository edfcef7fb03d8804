import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'cairn:public-route';

/**
 * Declares a route that needs no credentials (health, readiness, metrics). Every other
 * route must declare a permission; the access guard denies routes that declare neither.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);
