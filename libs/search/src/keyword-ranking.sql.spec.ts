import { createTestDatabase, type TestDatabase } from '@cairn/testing';
import { Client } from 'pg';
import { termFrequencySql } from './keyword-ranking.sql';

/** The keyword ranker's term frequency, read back from ts_rank, against PostgreSQL itself. */
describe('termFrequencySql', () => {
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

  it('recovers a term frequency from ts_rank: exactly up to 128 occurrences, within one up to 256', async () => {
    const { rows } = await client.query<{ n: number; tf: number }>(
      `SELECT n, ${termFrequencySql('v.tsv', `'word'::tsquery`)}::int AS tf
       FROM generate_series(1, 256) n, LATERAL (SELECT to_tsvector('simple', repeat('word other ', n)) AS tsv) v`,
    );
    expect(rows).toHaveLength(256);
    expect(rows.filter((row) => row.n <= 128 && row.tf !== row.n)).toEqual([]);
    expect(rows.filter((row) => Math.abs(row.tf - row.n) > 1)).toEqual([]);
  });
});
