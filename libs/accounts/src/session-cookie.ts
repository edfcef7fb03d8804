import { createHash, randomBytes } from 'node:crypto';
import { type CairnConfig } from '@cairn/config';

/**
 * The session cookie holds 32 random bytes and nothing else. `__Host-` makes browsers insist on
 * Secure, Path=/ and no Domain, so no other host or path can plant or read it; SameSite=Lax keeps
 * it off cross-site subrequests and form posts. SESSION_COOKIE_SECURE=false drops the prefix and
 * Secure for plain http on a trusted machine.
 */
export function sessionCookieName(config: CairnConfig): string {
  return config.accounts.cookieSecure ? '__Host-cairn_session' : 'cairn_session';
}

const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

export function newCookieValue(): string {
  return randomBytes(32).toString('base64url');
}

/** The session's id: what the database holds instead of the cookie. Undefined for a malformed value. */
export function sessionIdOf(cookieValue: string | undefined): string | undefined {
  if (cookieValue === undefined || !COOKIE_VALUE.test(cookieValue)) return undefined;
  return createHash('sha256').update(cookieValue).digest('hex');
}

function attributes(config: CairnConfig): string {
  return `Path=/; HttpOnly; SameSite=Lax${config.accounts.cookieSecure ? '; Secure' : ''}`;
}

/** `Set-Cookie` for a new session; the browser drops it when the session's absolute lifetime ends. */
export function sessionCookie(config: CairnConfig, value: string, maxAgeSeconds: number): string {
  return `${sessionCookieName(config)}=${value}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${attributes(config)}`;
}

/** `Set-Cookie` that removes the session cookie. */
export function clearedSessionCookie(config: CairnConfig): string {
  return `${sessionCookieName(config)}=; Max-Age=0; ${attributes(config)}`;
}
