import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The header the MCP Streamable HTTP transport carries a session id in. */
export const SESSION_HEADER = 'mcp-session-id';

const SESSION_ID = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/**
 * A session id for the stateless gateway: a random nonce and a digest binding it to the
 * token that initialized it. No replica stores anything, so any replica recognizes it, and
 * it carries no authority (every request still authenticates with its bearer token); the
 * binding only lets the gateway answer 404 "session not found", as the transport
 * specification asks, to a session id that is malformed or was issued to another token, so
 * the client starts a new session instead of mixing one client's session into another's.
 */
export function issueSessionId(tokenId: string): string {
  const nonce = randomBytes(16).toString('base64url');
  return `${nonce}.${binding(tokenId, nonce)}`;
}

/** Whether `sessionId` is one `issueSessionId` gave to this token. */
export function sessionIdBelongsTo(sessionId: string, tokenId: string): boolean {
  const match = SESSION_ID.exec(sessionId);
  if (!match) return false;
  const expected = Buffer.from(binding(tokenId, match[1]));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function binding(tokenId: string, nonce: string): string {
  return createHash('sha256').update(`cairn-mcp-session\0${tokenId}\0${nonce}`).digest('base64url');
}
