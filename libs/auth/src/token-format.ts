import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Readable prefix so leaked tokens are recognisable by secret scanners and humans. */
export const SESSION_TOKEN_PREFIX = 'cairn_st_';
const SECRET_BYTES = 32; // 256 bits from the CSPRNG
const SESSION_TOKEN_PATTERN = /^cairn_st_[A-Za-z0-9_-]{43}$/;

export interface NewToken {
  /** Shown to the caller once, never stored. */
  readonly token: string;
  readonly hash: Buffer;
  /** Enough to tell tokens apart in a list without weakening them. */
  readonly hint: string;
}

export function generateSessionToken(): NewToken {
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  const token = `${SESSION_TOKEN_PREFIX}${secret}`;
  return { token, hash: hashToken(token), hint: `${SESSION_TOKEN_PREFIX}${secret.slice(0, 4)}…` };
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Cheap shape check that keeps garbage from reaching the database. */
export function isWellFormedSessionToken(token: string): boolean {
  return SESSION_TOKEN_PATTERN.test(token);
}

/** Constant-time comparison through digests, so neither length nor prefix leaks. */
export function secretsEqual(candidate: string, expected: string): boolean {
  return timingSafeEqual(hashToken(candidate), hashToken(expected));
}
