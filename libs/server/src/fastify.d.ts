import 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request is authenticated as a tenant principal; used for logs. */
    tenantId?: string;
    /** Fields the request's completion log line adds (RequestContextData.completion). */
    logFields?: Record<string, unknown>;
  }
}
