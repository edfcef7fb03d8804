import { createTestDatabase, type TestDatabase } from '@cairn/testing';
import { Client } from 'pg';
import { authoredBySql, isAuthoredBy, type OwnerIdentity } from './memory-ownership';

const U1 = '00000000-0000-4000-8000-000000000001';
const U2 = '00000000-0000-4000-8000-000000000002';
const T1 = '00000000-0000-4000-8000-0000000000a1';
const T2 = '00000000-0000-4000-8000-0000000000a2';

/** Authors as memories record them: a user's agent, a service token's agent, a bare token. */
const AUTHORS: OwnerIdentity[] = [
  { userId: U1, agentId: 'claude:alice', tokenId: T1 },
  { userId: U1, agentId: null, tokenId: T1 },
  { userId: null, agentId: 'ci-bot', tokenId: T1 },
  { userId: null, agentId: null, tokenId: T1 },
];

/** Callers: the same user elsewhere, another user, agent ids without a user, a user carrying an agent id, tokens. */
const CALLERS: OwnerIdentity[] = [
  { userId: U1, agentId: 'cursor:alice', tokenId: T2 },
  { userId: U2, agentId: 'claude:alice', tokenId: T2 },
  { userId: null, agentId: 'ci-bot', tokenId: T2 },
  { userId: null, agentId: 'claude:alice', tokenId: T2 },
  { userId: U2, agentId: 'ci-bot', tokenId: T2 },
  { userId: null, agentId: null, tokenId: T1 },
  { userId: null, agentId: null, tokenId: T2 },
];

describe('memory ownership: one rule in code and in SQL', () => {
  let database: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: false });
    client = new Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it('says who owns a memory', () => {
    const [userAgent, , serviceAgent, bareToken] = AUTHORS;
    // Any token or agent of the author's user; nobody else, whatever agent id they carry.
    expect(isAuthoredBy(CALLERS[0], userAgent)).toBe(true);
    expect(isAuthoredBy(CALLERS[1], userAgent)).toBe(false);
    expect(isAuthoredBy(CALLERS[3], userAgent)).toBe(false);
    // Written without a user: a caller without one by the agent id, anyone by the very token.
    expect(isAuthoredBy(CALLERS[2], serviceAgent)).toBe(true);
    expect(isAuthoredBy(CALLERS[4], serviceAgent)).toBe(false);
    expect(isAuthoredBy(CALLERS[5], serviceAgent)).toBe(true);
    expect(isAuthoredBy(CALLERS[6], serviceAgent)).toBe(false);
    expect(isAuthoredBy(CALLERS[5], bareToken)).toBe(true);
    expect(isAuthoredBy(CALLERS[6], bareToken)).toBe(false);
  });

  it('agrees with its SQL form on every author and caller', async () => {
    const who = { userId: '$4::uuid', agentId: '$5::text', tokenId: '$6::uuid' };
    const sql = `SELECT ${authoredBySql('m', who)} AS owned
      FROM (SELECT $1::uuid AS author_user_id, $2::text AS author_agent_id, $3::uuid AS author_token_id) m`;
    for (const author of AUTHORS) {
      for (const caller of CALLERS) {
        const { rows } = await client.query<{ owned: boolean }>(sql, [
          author.userId,
          author.agentId,
          author.tokenId,
          caller.userId,
          caller.agentId,
          caller.tokenId,
        ]);
        expect({ author, caller, owned: rows[0].owned }).toEqual({
          author,
          caller,
          owned: isAuthoredBy(caller, author),
        });
      }
    }
  });
});
