import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { REDIS } from '@cairn/redis';
import { type Redis } from 'ioredis';

/** What a sign-in started at the IdP must come back with: openid-client checks all three. */
export interface OidcAttempt {
  readonly provider: string;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/** A person has this long to sign in at the IdP and come back. */
const ATTEMPT_SECONDS = 600;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Sign-ins under way at an identity provider. The state, nonce and PKCE verifier stay on the
 * server (Redis, so any replica can take the callback), under the hash of a random value that
 * only this browser holds in a short-lived HttpOnly cookie: a callback is accepted only from the
 * browser that started it, and only once (taking an attempt deletes it, so a replayed callback
 * finds nothing).
 */
@Injectable()
export class OidcAttempts {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** Keeps the attempt; returns the `Set-Cookie` value that binds it to this browser. */
  async begin(attempt: OidcAttempt): Promise<string> {
    const value = randomBytes(32).toString('base64url');
    await this.redis.set(this.key(value), JSON.stringify(attempt), 'EX', ATTEMPT_SECONDS);
    return `${this.cookieName()}=${value}; Max-Age=${ATTEMPT_SECONDS}; ${this.attributes()}`;
  }

  /** The attempt this browser started, removed so it cannot be used again; undefined if none. */
  async take(cookies: Readonly<Record<string, string | undefined>> | undefined): Promise<OidcAttempt | undefined> {
    const value = cookies?.[this.cookieName()];
    if (value === undefined || !COOKIE_VALUE.test(value)) return undefined;
    const key = this.key(value);
    const results = await this.redis.multi().get(key).del(key).exec();
    const stored = results?.[0]?.[1];
    return typeof stored === 'string' ? (JSON.parse(stored) as OidcAttempt) : undefined;
  }

  /** `Set-Cookie` that removes the attempt's cookie (the callback always ends it). */
  clearCookie(): string {
    return `${this.cookieName()}=; Max-Age=0; ${this.attributes()}`;
  }

  /**
   * Named like the session cookie (`__Host-` unless SESSION_COOKIE_SECURE=false). SameSite=Lax
   * lets the browser send it on the IdP's top-level redirect back to the callback.
   */
  private cookieName(): string {
    return this.config.accounts.cookieSecure ? '__Host-cairn_oidc' : 'cairn_oidc';
  }

  private attributes(): string {
    return `Path=/; HttpOnly; SameSite=Lax${this.config.accounts.cookieSecure ? '; Secure' : ''}`;
  }

  private key(cookieValue: string): string {
    return `${this.config.queues.prefix}:oidc:${createHash('sha256').update(cookieValue).digest('hex')}`;
  }
}
