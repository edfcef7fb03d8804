import { SqlParams } from '@cairn/db';
import { createTestDatabase, type TestDatabase } from '@cairn/testing';
import { Client } from 'pg';
import { corpusQuery, type CorpusDefinition, type OccurredWindow } from './contract/corpus';
import { datedCandidatesStatement } from './dated-ranking.sql';

/** A corpus of dated rows, half of them hidden by the owner's condition (as other projects' rows are). */
const DATED: CorpusDefinition<{ group: number }> = {
  table: 'dated_rows',
  signals: { importance: false, confidence: false, pinned: false },
  occurredAt: 'occurred_at',
  termScopes: () => [],
  condition: (filter, binder, alias) => `${alias}.grp = ${binder.add(filter.group)}`,
};

const DAY = 86_400_000;
const START = Date.parse('2024-01-01T00:00:00Z');
const at = (days: number) => new Date(START + days * DAY);

/**
 * A dated question's candidates are read in three index-ordered pieces around the question's
 * range; this checks that they are exactly the first rows of the whole window ordered by distance
 * from the range (then newest first, then id), against PostgreSQL, on rows with many equal times.
 */
describe('datedCandidatesStatement', () => {
  let database: TestDatabase;
  let client: Client;
  let rows: { id: string; grp: number; occurred_at: Date }[];

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: false });
    client = new Client({ connectionString: database.url });
    await client.connect();
    // 2,000 rows over 100 days, on the hour (so ties are common), in two groups.
    await client.query(
      `CREATE TABLE dated_rows (id uuid PRIMARY KEY, grp int NOT NULL, occurred_at timestamptz NOT NULL)`,
    );
    await client.query(`CREATE INDEX dated_rows_occurred ON dated_rows (occurred_at)`);
    await client.query(
      `INSERT INTO dated_rows
       SELECT gen_random_uuid(), g % 2, $1::timestamptz + (floor(random() * 2400) || ' hours')::interval
       FROM generate_series(1, 2000) g`,
      [at(0)],
    );
    await client.query('ANALYZE dated_rows');
    rows = (await client.query(`SELECT id, grp, occurred_at FROM dated_rows`)).rows;
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  /** The first `limit` rows of the window by distance from `core`, newest first, then id: computed here. */
  const expected = (window: OccurredWindow, core: OccurredWindow, limit: number) => {
    const inWindow = rows.filter(
      (row) =>
        row.grp === 1 &&
        (!window.from || row.occurred_at >= window.from) &&
        (!window.to || row.occurred_at < window.to),
    );
    const distance = (t: number) =>
      Math.max(0, core.from ? core.from.getTime() - t : 0, core.to ? t - core.to.getTime() : 0);
    return inWindow
      .map((row) => ({ id: row.id, t: row.occurred_at.getTime() }))
      .sort((a, b) => distance(a.t) - distance(b.t) || b.t - a.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit)
      .map((row) => row.id);
  };

  const candidates = async (window: OccurredWindow, core: OccurredWindow, limit: number) => {
    const params = new SqlParams();
    const text = datedCandidatesStatement(corpusQuery(DATED, { group: 1 }), window, core, limit, params);
    return (await client.query<{ id: string }>(text, params.values)).rows.map((row) => row.id);
  };

  it.each<[string, OccurredWindow, OccurredWindow, number]>([
    ['a day, widened on both sides', { from: at(40), to: at(50) }, { from: at(44), to: at(45) }, 30],
    ['a month, nothing widened', { from: at(30), to: at(60) }, { from: at(30), to: at(60) }, 30],
    ['before a date, open window', { from: null, to: at(70) }, { from: null, to: at(50) }, 30],
    ['after a date, open window', { from: at(20), to: null }, { from: at(60), to: null }, 30],
    ['no range at all', { from: null, to: null }, { from: null, to: null }, 25],
    ['a range nothing occurred in', { from: at(150), to: at(200) }, { from: at(160), to: at(170) }, 30],
    ['more asked for than the window holds', { from: at(10), to: at(12) }, { from: at(11), to: at(11.5) }, 500],
  ])('gives the same rows in the same order as sorting the whole window: %s', async (_, window, core, limit) => {
    const want = expected(window, core, limit);
    expect(await candidates(window, core, limit)).toEqual(want);
  });

  it('walks the time index from the range outwards, stopping at the limit, instead of sorting the window', async () => {
    await client.query('BEGIN');
    try {
      // The table is small: without this the planner may read it whole, which is right at this size.
      await client.query('SET LOCAL enable_seqscan = off');
      await client.query('SET LOCAL enable_bitmapscan = off');
      const params = new SqlParams();
      const text = datedCandidatesStatement(
        corpusQuery(DATED, { group: 1 }),
        { from: at(0), to: at(100) },
        { from: at(44), to: at(45) },
        10,
        params,
      );
      const { rows: plan } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ANALYZE ${text}`, params.values);
      const lines = plan.map((row) => row['QUERY PLAN']);
      const scans = lines.filter((line) => line.includes('dated_rows_occurred'));
      expect(scans).toHaveLength(3);
      // Each piece stopped after its first rows (the limit, and the few that share the last one's
      // time, which the index does not order by id), out of about 1,000 in the window.
      for (const line of lines.filter((l) => /Index Scan.*dated_rows_occurred/.test(l))) {
        const rowsRead = Number(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(line)?.[1]);
        expect(rowsRead).toBeLessThanOrEqual(2 * 10);
      }
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
