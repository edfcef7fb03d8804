import 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request is authenticated as a tenant principal; used for logs. */
    tenantId?: string;
  }
}
