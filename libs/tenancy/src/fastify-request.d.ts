import 'fastify';
import { type TenantRef } from './tenant-ref';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant a request acts on, resolved by the access guard from the path or the token. */
    tenant?: TenantRef;
  }
}
