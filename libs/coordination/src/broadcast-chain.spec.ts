import { broadcastHash, type ChainedBroadcast, genesisHash } from './broadcast-chain';

const message: ChainedBroadcast = {
  projectId: '7c0a7d4e-3f61-4c55-9d0a-1f0b8f5d6a11',
  seq: 1,
  type: 'ASSIGN',
  summary: 'Take the billing retry bug',
  files: ['src/billing/retry.ts'],
  replyTo: null,
  assignee: 'claude-code:bob',
  author: { userId: null, agentId: 'orchestrator', tokenId: '0d4b8a55-9f0e-4c8e-8f57-0b9a9f1f2b3c' },
  at: new Date('2026-11-24T06:00:00.123Z'),
};

describe('broadcast chain', () => {
  const genesis = genesisHash(message.projectId);

  it('starts every project from a genesis of its own', () => {
    expect(genesis).toHaveLength(32);
    expect(genesisHash('0f3c2b1a-0000-4000-8000-000000000000').equals(genesis)).toBe(false);
  });

  it.each<[string, Partial<ChainedBroadcast>]>([
    ['project', { projectId: '0f3c2b1a-0000-4000-8000-000000000000' }],
    ['seq', { seq: 2 }],
    ['type', { type: 'STATUS' }],
    ['summary', { summary: 'Take the billing retry bug!' }],
    ['files', { files: ['src/billing/retry.spec.ts'] }],
    ['reply', { replyTo: 1 }],
    ['assignee', { assignee: 'claude-code:eve' }],
    ['author', { author: { ...message.author, agentId: 'someone-else' } }],
    ['time', { at: new Date('2026-11-24T06:00:00.124Z') }],
  ])('changes when the %s changes', (_field, change) => {
    expect(broadcastHash(genesis, { ...message, ...change }).equals(broadcastHash(genesis, message))).toBe(false);
  });

  it('depends on the link before it', () => {
    const first = broadcastHash(genesis, message);
    expect(broadcastHash(first, message).equals(first)).toBe(false);
  });
});
