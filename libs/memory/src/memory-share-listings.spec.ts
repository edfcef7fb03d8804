import { SqlParams } from '@cairn/db';
import { sharedWithSql } from './memory-share-listings.sql';

/** The statements themselves are in the generated libs/memory/sql/memory-shares.repository.sql. */
describe('shared_with_me', () => {
  it('sends no statement for a caller that nothing can be shared with (no user, no agent)', () => {
    const params = new SqlParams();
    const viewer = { userId: null, agentId: null, tokenId: '00000000-0000-4000-8000-000000000003' };
    expect(sharedWithSql(viewer, '00000000-0000-4000-8000-000000000001', 21, undefined, params)).toBeNull();
    expect(params.values).toEqual([]);
  });
});
