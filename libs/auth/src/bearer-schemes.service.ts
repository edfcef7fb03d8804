import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';

/**
 * A kind of bearer token verified by a feature above this platform library: the access tokens of
 * Cairn's own OAuth authorization server (@cairn/oauth). `accepts` is a cheap test of the token's
 * shape; `verify` answers the principal or throws the 401/403 that says why.
 */
export interface BearerScheme {
  readonly name: string;
  accepts(token: string): boolean;
  verify(token: string, challenge: Record<string, string>): Promise<SessionPrincipal>;
}

/**
 * How TokenVerifier reaches bearer schemes it does not know (the BrowserSessionGate pattern): a
 * feature module registers its scheme at start-up; a process that imports none (the worker,
 * command-line tools) accepts only session tokens and the configured external JWTs.
 */
@Injectable()
export class BearerSchemes {
  private readonly schemes: BearerScheme[] = [];

  register(scheme: BearerScheme): void {
    if (this.schemes.some((known) => known.name === scheme.name)) {
      throw new Error(`a bearer scheme named ${scheme.name} is already registered`);
    }
    this.schemes.push(scheme);
  }

  /** The first registered scheme that takes this token. */
  find(token: string): BearerScheme | undefined {
    return this.schemes.find((scheme) => scheme.accepts(token));
  }
}
