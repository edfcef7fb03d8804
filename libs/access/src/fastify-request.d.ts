import 'fastify';
import { type Principal } from './principal';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the access guard once the caller is authenticated. */
    principal?: Principal;
  }
}
