import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { type BrowserSessionRef, type Principal } from '@cairn/access';
import {
  type BrowserAuthentication,
  type BrowserSessionAuthenticator,
  BrowserSessionGate,
  TokensService,
  TokenVerifier,
} from '@cairn/auth';
import { CairnError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type TenantRef } from '@cairn/tenancy';
import { type FastifyRequest } from 'fastify';
import { AccountsRepository } from './accounts.repository';
import { type EndedSession, BrowserSessionsRepository, type StoredBrowserSession } from './browser-sessions.repository';
import { clearedSessionCookie, newCookieValue, sessionCookie, sessionCookieName, sessionIdOf } from './session-cookie';

/** Who a new session is for: an account of a tenant (its user), a platform account, or the bootstrap token. */
export type SessionSubject =
  | { readonly kind: 'tenant'; readonly accountId: string; readonly tenant: TenantRef; readonly userId: string }
  | { readonly kind: 'platform'; readonly accountId: string }
  | { readonly kind: 'bootstrap' };

export interface SessionClient {
  readonly userAgent: string | undefined;
  readonly ip: string;
}

export interface StartedSession {
  readonly session: BrowserSessionRef;
  readonly principal: Principal;
  /** The `Set-Cookie` header value that hands the browser its session. */
  readonly setCookie: string;
}

/** How long the idle clock may lag: activity is written at most this often (and well within the idle timeout). */
const touchIntervalSeconds = (idle: number) => Math.min(60, idle / 4);

/**
 * Server-side browser sessions (DESIGN §12): start one for an account whose credentials were
 * checked (local sign-in here; an OIDC callback later calls `start` the same way), authenticate
 * the cookie for the access guard, end one or all. A tenant session acts through a session token
 * of its own, so revocation, expiry, a disabled user, a suspended tenant and role caps apply to
 * a person exactly as to an agent's token.
 */
@Injectable()
export class BrowserSessions implements BrowserSessionAuthenticator, OnModuleInit {
  private readonly logger = new Logger('BrowserSessions');
  private readonly csrfKey: Buffer;

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly sessions: BrowserSessionsRepository,
    private readonly accounts: AccountsRepository,
    private readonly tokens: TokensService,
    private readonly verifier: TokenVerifier,
    private readonly gate: BrowserSessionGate,
  ) {
    // Derived from the master key, so every replica computes the same CSRF tokens without
    // another secret to distribute; a process without one (tests of other things) makes its own.
    const master = config.secrets.masterKey ?? randomBytes(32);
    this.csrfKey = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'cairn:csrf:v1', 32));
  }

  onModuleInit(): void {
    this.gate.register(this);
  }

  /** Starts a session for `subject`, whose credentials the caller has already verified. */
  async start(subject: SessionSubject, client: SessionClient): Promise<StartedSession> {
    const { absoluteTimeoutSeconds, idleTimeoutSeconds } = this.config.accounts;
    const expiresAt = new Date(Date.now() + absoluteTimeoutSeconds * 1000);
    const cookieValue = newCookieValue();
    const id = sessionIdOf(cookieValue) as string;
    let tokenId: string | null = null;
    let tenantId: string | null = null;
    if (subject.kind === 'tenant') {
      const token = await this.tokens.issueForSignIn(subject.tenant, {
        userId: subject.userId,
        expiresAt,
        label: 'console session',
        createdBy: `account:${subject.accountId}`,
      });
      tokenId = token.id;
      tenantId = subject.tenant.id;
    }
    const stored = await this.sessions.insert({
      id,
      accountId: subject.kind === 'bootstrap' ? null : subject.accountId,
      kind: subject.kind === 'tenant' ? 'tenant' : 'platform',
      tenantId,
      tokenId,
      mustCreateAccount: subject.kind === 'bootstrap',
      idleTimeoutSeconds,
      expiresAt,
      userAgent: client.userAgent?.slice(0, 256) ?? null,
      ip: client.ip.slice(0, 64),
    });
    const principal = await this.principalOf(stored);
    return {
      session: toRef(stored, stored.now),
      principal,
      setCookie: sessionCookie(this.config, cookieValue, absoluteTimeoutSeconds),
    };
  }

  /** The access guard's half: the cookie's session, live, as a principal; a 401 that clears the cookie otherwise. */
  async authenticate(request: FastifyRequest): Promise<BrowserAuthentication | undefined> {
    const value = request.cookies?.[sessionCookieName(this.config)];
    if (value === undefined) return undefined;
    const id = sessionIdOf(value);
    const stored = id === undefined ? undefined : await this.sessions.find(id);
    const problem = stored ? whyNotLive(stored) : 'Session not recognised; sign in again';
    if (!stored || problem) throw this.ended('session_expired', problem ?? 'Session ended; sign in again');
    let principal: Principal;
    try {
      principal = await this.principalOf(stored);
    } catch (error) {
      // The token behind it was revoked, the user disabled, the tenant deleted: the session is over.
      // A suspended tenant (403 tenant_suspended) is not: the session works again once it is resumed.
      if (error instanceof CairnError && error.status === 403) throw error;
      await this.sessions.revoke(stored.id);
      if (error instanceof CairnError && error.status === 401) throw this.ended(error.code, error.message);
      throw error;
    }
    let seen = stored.lastSeenAt;
    if (stored.now.getTime() - seen.getTime() >= touchIntervalSeconds(stored.idleTimeoutSeconds) * 1000) {
      await this.sessions.touch(stored.id, touchIntervalSeconds(stored.idleTimeoutSeconds));
      seen = stored.now;
    }
    return { principal, session: toRef(stored, seen) };
  }

  csrfToken(sessionId: string): string {
    return createHmac('sha256', this.csrfKey).update(sessionId).digest('base64url');
  }

  csrfMatches(session: BrowserSessionRef, header: string | undefined): boolean {
    if (header === undefined) return false;
    const expected = Buffer.from(this.csrfToken(session.id));
    const given = Buffer.from(header);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Ends one session and revokes the token behind it. */
  async end(sessionId: string): Promise<void> {
    await this.revokeTokens(await this.sessions.revoke(sessionId));
  }

  /** Ends one of the account's sessions; false when it has no such live session. */
  async endOfAccount(accountId: string, sessionId: string): Promise<boolean> {
    const ended = await this.sessions.revokeOfAccount(accountId, sessionId);
    await this.revokeTokens(ended);
    return ended.length > 0;
  }

  /** Every session of the account ends (sign out everywhere, a password set by link). */
  async endAllOfAccount(accountId: string): Promise<void> {
    await this.revokeTokens(await this.sessions.revokeAllOfAccount(accountId));
  }

  /** The account's live sessions; a tenant session whose token no longer works is left out (and ended). */
  async list(accountId: string): Promise<StoredBrowserSession[]> {
    const live: StoredBrowserSession[] = [];
    for (const session of await this.sessions.listLive(accountId)) {
      try {
        if (session.tokenId) await this.verifier.verifyTokenId(session.tokenId);
        live.push(session);
      } catch (error) {
        // As in authenticate(): only a credential that is over ends its session.
        if (error instanceof CairnError && error.status === 403) continue;
        await this.sessions.revoke(session.id);
      }
    }
    return live;
  }

  /** `Set-Cookie` that removes the session cookie (sign-out). */
  clearCookie(): string {
    return clearedSessionCookie(this.config);
  }

  private async principalOf(stored: StoredBrowserSession): Promise<Principal> {
    if (stored.tokenId) return { ...(await this.verifier.verifyTokenId(stored.tokenId)), via: 'browser' };
    if (stored.accountId) {
      const account = await this.accounts.findById(stored.accountId);
      if (!account || account.disabledAt) throw this.ended('user_disabled', 'The account is disabled');
      return { kind: 'platform', accountId: account.id, via: 'browser' };
    }
    return { kind: 'platform', via: 'browser' };
  }

  private async revokeTokens(ended: readonly EndedSession[]): Promise<void> {
    for (const session of ended) {
      if (!session.tenantId || !session.tokenId) continue;
      await this.tokens.revokeIssued(session.tenantId, session.tokenId).catch((error: unknown) => {
        this.logger.error({ msg: 'could not revoke an ended session token', err: error });
        throw error;
      });
    }
  }

  /** A 401 that also tells the browser to drop its cookie. */
  private ended(code: string, message: string): CairnError {
    return new CairnError(401, code, message, undefined, {
      'WWW-Authenticate': 'Bearer realm="cairn"',
      'Set-Cookie': clearedSessionCookie(this.config),
    });
  }
}

function whyNotLive(session: StoredBrowserSession): string | undefined {
  if (session.revokedAt) return 'Session ended; sign in again';
  if (session.expiresAt.getTime() <= session.now.getTime()) return 'Session expired; sign in again';
  if (session.lastSeenAt.getTime() + session.idleTimeoutSeconds * 1000 <= session.now.getTime()) {
    return 'Session expired after inactivity; sign in again';
  }
  return undefined;
}

function toRef(session: StoredBrowserSession, lastSeen: Date): BrowserSessionRef {
  return {
    id: session.id,
    accountId: session.accountId,
    kind: session.kind,
    mustCreateAccount: session.mustCreateAccount,
    expiresAt: session.expiresAt,
    idleExpiresAt: new Date(
      Math.min(lastSeen.getTime() + session.idleTimeoutSeconds * 1000, session.expiresAt.getTime()),
    ),
  };
}
