import { issueSessionId, sessionIdBelongsTo } from './mcp-session-id';

describe('stateless MCP session ids', () => {
  it('are visible ASCII, differ on every initialize and belong to the token they were issued to', () => {
    const first = issueSessionId('token-a');
    const second = issueSessionId('token-a');
    expect(first).toMatch(/^[\x21-\x7e]+$/);
    expect(first).not.toBe(second);
    expect(sessionIdBelongsTo(first, 'token-a')).toBe(true);
    expect(sessionIdBelongsTo(second, 'token-a')).toBe(true);
  });

  it('are refused for another token, altered, truncated or malformed', () => {
    const id = issueSessionId('token-a');
    const [nonce, digest] = id.split('.');
    expect(sessionIdBelongsTo(id, 'token-b')).toBe(false);
    expect(sessionIdBelongsTo(`${nonce}.${digest.slice(0, -1)}${digest.endsWith('A') ? 'B' : 'A'}`, 'token-a')).toBe(
      false,
    );
    expect(sessionIdBelongsTo(id.slice(0, -1), 'token-a')).toBe(false);
    expect(sessionIdBelongsTo(`${id}x`, 'token-a')).toBe(false);
    for (const bad of ['', 'session', '.', `${nonce}`, `${nonce}.${digest}.x`, '../../etc/passwd']) {
      expect(sessionIdBelongsTo(bad, 'token-a')).toBe(false);
    }
  });
});
