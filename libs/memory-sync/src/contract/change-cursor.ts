import { z } from 'zod';

/**
 * A position in the change feed. `after`: everything up to and including the row
 * (xid, id) was delivered. `horizon`: every change with a transaction id below `xid` was
 * delivered (nothing below it can appear any more). Transaction ids are xid8 (64-bit, never
 * wrap), carried as decimal strings because they exceed Number's exact range.
 */
export type ChangeCursor =
  | { readonly kind: 'after'; readonly xid: string; readonly id: string }
  | { readonly kind: 'horizon'; readonly xid: string };

const MAX_XID8 = (1n << 64n) - 1n;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const XID = /^(0|[1-9][0-9]{0,19})$/;
const BASE64URL = /^[A-Za-z0-9_-]{1,200}$/;

/** Opaque to clients: `c1.a.<xid>.<id>` or `c1.h.<xid>`, base64url-encoded. */
export function encodeCursor(cursor: ChangeCursor): string {
  const text = cursor.kind === 'after' ? `c1.a.${cursor.xid}.${cursor.id}` : `c1.h.${cursor.xid}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** The cursor a token stands for, or null when it is not one this server issued. */
export function decodeCursor(token: string): ChangeCursor | null {
  if (!BASE64URL.test(token)) return null;
  const parts = Buffer.from(token, 'base64url').toString('utf8').split('.');
  const [version, kind, xid, id] = parts;
  if (version !== 'c1' || xid === undefined || !XID.test(xid) || BigInt(xid) > MAX_XID8) return null;
  if (kind === 'h' && parts.length === 3) return { kind: 'horizon', xid };
  if (kind === 'a' && parts.length === 4 && id !== undefined && UUID.test(id)) return { kind: 'after', xid, id };
  return null;
}

/** The later of two positions; a client replaying an old cursor never moves backwards. */
export function laterCursor(a: ChangeCursor, b: ChangeCursor): ChangeCursor {
  const ax = BigInt(a.xid);
  const bx = BigInt(b.xid);
  if (ax !== bx) return ax > bx ? a : b;
  // Same xid: a horizon at x covers nothing of x itself, an `after` at (x, id) covers part of it.
  if (a.kind === 'horizon') return b;
  if (b.kind === 'horizon') return a;
  return a.id >= b.id ? a : b;
}

export const changeCursorSchema = z
  .string()
  .max(200)
  .transform((value, ctx) => {
    const cursor = decodeCursor(value);
    if (!cursor) {
      ctx.addIssue({ code: 'custom', message: 'must be a nextCursor returned by a previous call' });
      return z.NEVER;
    }
    return cursor;
  });
