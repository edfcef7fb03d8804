import 'fastify';
import { type BrowserSessionRef, type Principal } from './principal';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the access guard once the caller is authenticated. */
    principal?: Principal;
    /** Set by the access guard when the request authenticated with a browser session cookie. */
    browserSession?: BrowserSessionRef;
  }
}
