import { chainHash, type ChainedAuditFields, GENESIS_HASH, storedDetails } from './audit-chain';

const entry: ChainedAuditFields = {
  at: new Date('2026-11-22T10:00:00.123Z'),
  actor: 'token:abc',
  action: 'mcp.memory_store',
  target: 'payments',
  outcome: 'success',
  status: null,
  requestId: 'req-1',
  details: { argsDigest: 'f00', agentId: 'claude-code:alice' },
};

describe('chainHash', () => {
  it('is a 32-byte digest that ignores the key order jsonb may give back', () => {
    const hash = chainHash(GENESIS_HASH, entry);
    expect(hash).toHaveLength(32);
    const reordered = { ...entry, details: { agentId: 'claude-code:alice', argsDigest: 'f00' } };
    expect(chainHash(GENESIS_HASH, reordered).equals(hash)).toBe(true);
  });

  it.each<[string, Partial<ChainedAuditFields>]>([
    ['time', { at: new Date('2026-11-22T10:00:00.124Z') }],
    ['actor', { actor: 'token:abd' }],
    ['action', { action: 'mcp.memory_delete' }],
    ['target', { target: null }],
    ['outcome', { outcome: 'denied' }],
    ['status', { status: 403 }],
    ['request id', { requestId: 'req-2' }],
    ['details', { details: { argsDigest: 'f01', agentId: 'claude-code:alice' } }],
  ])('changes when the %s changes', (_field, change) => {
    expect(chainHash(GENESIS_HASH, { ...entry, ...change }).equals(chainHash(GENESIS_HASH, entry))).toBe(false);
  });

  it('depends on the previous hash, so entries cannot be moved', () => {
    const first = chainHash(GENESIS_HASH, entry);
    expect(chainHash(first, entry).equals(first)).toBe(false);
  });
});

describe('storedDetails', () => {
  it('gives details as jsonb returns them: undefined members gone, no details as null', () => {
    expect(storedDetails({ agentId: undefined, code: 'x', n: 1 })).toEqual({ code: 'x', n: 1 });
    expect(storedDetails(undefined)).toBeNull();
  });
});
