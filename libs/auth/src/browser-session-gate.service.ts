import { Injectable } from '@nestjs/common';
import { type BrowserSessionRef, type Principal } from '@cairn/access';
import { type FastifyRequest } from 'fastify';

/** What authenticating a browser session cookie gives the access guard. */
export interface BrowserAuthentication {
  readonly principal: Principal;
  readonly session: BrowserSessionRef;
}

/**
 * How the access guard reaches browser sessions without knowing them: @cairn/accounts (a
 * feature, above this platform library) registers itself here at start-up. A process without
 * accounts (the MCP gateway, the worker) registers nothing, so there a cookie is no credential.
 */
export interface BrowserSessionAuthenticator {
  /** Undefined when the request carries no session cookie; a 401 when it carries one that is not live. */
  authenticate(request: FastifyRequest): Promise<BrowserAuthentication | undefined>;
  /** Whether `header` is the CSRF token of `session` (constant-time comparison). */
  csrfMatches(session: BrowserSessionRef, header: string | undefined): boolean;
}

@Injectable()
export class BrowserSessionGate {
  private authenticator: BrowserSessionAuthenticator | undefined;

  register(authenticator: BrowserSessionAuthenticator): void {
    if (this.authenticator && this.authenticator !== authenticator) {
      throw new Error('a browser session authenticator is already registered');
    }
    this.authenticator = authenticator;
  }

  get current(): BrowserSessionAuthenticator | undefined {
    return this.authenticator;
  }
}
