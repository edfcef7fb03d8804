import { SqlParams } from '@cairn/db';
import { authorMatchSql, isAuthor } from './memory-ownership';

const USER = '00000000-0000-4000-8000-000000000001';
const OTHER_USER = '00000000-0000-4000-8000-000000000002';
const TOKEN = '00000000-0000-4000-8000-0000000000a1';
const OTHER_TOKEN = '00000000-0000-4000-8000-0000000000a2';

const by = (userId: string | null, agentId: string | null, tokenId: string | null) => ({
  author: { userId, agentId, tokenId },
});

describe('memory ownership (who wrote a memory)', () => {
  it('counts every token and agent of the same user as the author', () => {
    expect(isAuthor(by(USER, 'laptop', TOKEN), { userId: USER, agentId: 'desktop', tokenId: OTHER_TOKEN })).toBe(true);
    expect(isAuthor(by(USER, 'laptop', TOKEN), { userId: OTHER_USER, agentId: 'laptop', tokenId: OTHER_TOKEN })).toBe(
      false,
    );
  });

  it('matches an agent id only between tokens without a user', () => {
    const serviceAgent = { userId: null, agentId: 'ci-bot', tokenId: OTHER_TOKEN };
    expect(isAuthor(by(null, 'ci-bot', TOKEN), serviceAgent)).toBe(true);
    // A user's memory is not a service agent's because the agent ids agree.
    expect(isAuthor(by(USER, 'ci-bot', TOKEN), serviceAgent)).toBe(false);
    // And a user's token naming the agent is not the service agent.
    expect(isAuthor(by(null, 'ci-bot', TOKEN), { userId: USER, agentId: 'ci-bot', tokenId: OTHER_TOKEN })).toBe(false);
  });

  it('always counts the very token that wrote it, and nothing for a memory with no author', () => {
    expect(isAuthor(by(null, null, TOKEN), { userId: null, agentId: null, tokenId: TOKEN })).toBe(true);
    expect(isAuthor(by(null, null, null), { userId: null, agentId: null, tokenId: TOKEN })).toBe(false);
  });

  it('renders the same rule as SQL, with values as parameters', () => {
    const params = new SqlParams();
    expect(authorMatchSql('m', { userId: USER, agentId: 'laptop', tokenId: TOKEN }, params)).toBe(
      '(m.author_token_id = $1::uuid OR m.author_user_id = $2::uuid)',
    );
    expect(params.values).toEqual([TOKEN, USER]);
    const service = new SqlParams();
    expect(authorMatchSql('m', { userId: null, agentId: "ci'bot", tokenId: TOKEN }, service)).toBe(
      '(m.author_token_id = $1::uuid OR (m.author_agent_id = $2 AND m.author_user_id IS NULL))',
    );
    expect(service.values).toEqual([TOKEN, "ci'bot"]);
  });
});
