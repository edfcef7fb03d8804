import { queryEntities } from './query-entities';

describe('queryEntities', () => {
  it.each([
    ['What did Maria say about the release train?', 'Maria'],
    ['Which region does eu-west-1 map to in the Terraform config?', 'eu-west-1 Terraform'],
    ['where is user_id validated', 'user_id'],
    ['Why does getUser call the AWS API twice?', 'getUser AWS API'],
    ['Is "feature flags" documented anywhere?', 'feature flags'],
    ['what changed in v2.3 of PostgreSQL support', 'v2.3 PostgreSQL'],
    ['How many times do we retry a failed payment?', ''],
    ['Paris or Lisbon: where did I go first?', 'Lisbon'],
    ['The ticket PROJ-12 is about Redis. Who owns it?', 'PROJ-12 Redis'],
    ['', ''],
  ])('finds the names in %j', (query, expected) => {
    expect(queryEntities(query)).toBe(expected);
  });
});
