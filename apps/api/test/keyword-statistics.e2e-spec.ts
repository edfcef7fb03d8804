import { MemoriesRepository, SYSTEM_VIEWER } from '@cairn/memory';
import { JobQueue } from '@cairn/jobs';
import {
  BM25,
  DEFAULT_MATCH_BUDGET,
  FOLD_AFTER_WRITES,
  HybridSearch,
  queryEntities,
  TermStatistics,
} from '@cairn/search';
import { TenantEntry } from '@cairn/tenancy';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

interface Hit {
  memory: { id: string };
  explain: { keyword?: { score: number } };
}

/** A two-person chat: the other person's name is in most turns, as in any conversation log. */
const CHAT = [
  'Maria said the staging cluster runs Kubernetes 1.29 since the upgrade in March',
  'Maria prefers squash merges so main keeps one commit per pull request',
  'Maria asked whether the Grafana alert for checkout latency pages the on-call engineer',
  'I told Maria the nightly backup job writes to the eu-west bucket',
  'Maria mentioned that the payments service retries a charge three times before failing',
  'We agreed with Maria that feature flags live in LaunchDarkly, not in env files',
  'Maria reported the flaky login test is caused by a clock skew in CI runners',
  'The release train leaves every Tuesday; Maria owns the changelog',
  'I reminded myself to rotate the Stripe webhook secret next sprint',
  'Maria says the search index is rebuilt from scratch every Sunday night',
];

describe('keyword ranking statistics (BM25 kept by the write path)', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let data: DataSource;
  const schema = () => `"${w.tenant.schema}"`;
  const keyword = async (query: string, project = w.project): Promise<[string, number][]> => {
    const response = await w.wideAgent.post(memoriesUrl(project, '/search'), {
      query,
      mode: 'keyword',
      limit: 10,
      explain: true,
    });
    expect(response.status).toBe(200);
    return (response.body.results as Hit[]).map((hit) => [hit.memory.id, hit.explain.keyword?.score ?? 0]);
  };
  /** A ranking as the scores it gave (the order of equal scores is the boosts', not the ranker's). */
  const scores = async (query: string, project = w.project): Promise<Record<string, number>> => {
    return Object.fromEntries(await keyword(query, project));
  };
  /**
   * Per project, every lexeme's live-row count and the row count/length under '', from the rows
   * themselves; team memories count in the tenant-wide bucket, which every project's recall reads.
   */
  const recount = (corpusTable: string) => {
    const bucket =
      corpusTable === 'memories'
        ? `CASE WHEN scope = 'team' THEN '00000000-0000-0000-0000-000000000000' ELSE project_id END`
        : `coalesce(project_id, '00000000-0000-0000-0000-000000000000')`;
    return data.query<{ scope: string; lexeme: string; docs: number; tokens: number }[]>(
      `SELECT scope::text, lexeme, docs::int, tokens::int FROM (
         SELECT ${bucket} AS scope, u.lexeme, count(*) AS docs, 0 AS tokens
         FROM ${schema()}.${corpusTable} m, unnest(m.tsv) u ${corpusTable === 'memories' ? 'WHERE m.deleted_at IS NULL' : ''} GROUP BY 1, 2
         UNION ALL
         SELECT ${bucket}, '', count(*), sum(tsv_tokens)
         FROM ${schema()}.${corpusTable} m ${corpusTable === 'memories' ? 'WHERE m.deleted_at IS NULL' : ''} GROUP BY 1
       ) s WHERE docs <> 0 ORDER BY 1, 2`,
    );
  };
  const kept = (corpusTable: string) =>
    data.query<{ scope: string; lexeme: string; docs: number; tokens: number }[]>(
      `SELECT scope::text, lexeme, sum(docs)::int AS docs, sum(tokens)::int AS tokens FROM (
         SELECT scope, lexeme, docs, tokens FROM ${schema()}.term_counts WHERE corpus = $1
         UNION ALL SELECT scope, lexeme, docs, tokens FROM ${schema()}.term_count_deltas WHERE corpus = $1
       ) s GROUP BY 1, 2 HAVING sum(docs) <> 0 ORDER BY 1, 2`,
      [corpusTable],
    );
  const fold = () => api.app.get(TenantEntry).run(w.tenant, () => api.app.get(TermStatistics).fold());

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
    data = api.app.get(DataSource);
    for (const content of CHAT) await store(w.agent, w.project, { content, tags: ['chat'] });
  });
  afterAll(() => api.close());

  it('scores a match with Okapi BM25 over the project statistics', async () => {
    const [top] = await keyword('Which bucket does the nightly backup write to?');
    expect(top).toBeDefined();
    const [id, score] = top;
    // The textbook formula over the project's rows, counted here from the rows themselves.
    const terms = await data.query<{ tf: number; df: number; n: number; dl: number; avgdl: number }[]>(
      `WITH project AS (SELECT * FROM ${schema()}.memories
                        WHERE project_id = (SELECT project_id FROM ${schema()}.memories WHERE id = $1) AND deleted_at IS NULL),
            q AS (SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', $2)))
       SELECT array_length(u.positions, 1) AS tf,
              (SELECT count(*) FROM project p, unnest(p.tsv) x WHERE x.lexeme = u.lexeme)::int AS df,
              (SELECT count(*) FROM project)::int AS n, m.tsv_tokens AS dl,
              (SELECT avg(tsv_tokens) FROM project)::float8 AS avgdl
       FROM ${schema()}.memories m, unnest(m.tsv) u WHERE m.id = $1 AND u.lexeme IN (SELECT lexeme FROM q)`,
      [id, 'Which bucket does the nightly backup write to?'],
    );
    expect(terms.length).toBe(4);
    const { k1, b } = BM25;
    const expected = terms.reduce((sum, { tf, df, n, dl, avgdl }) => {
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      return sum + (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * dl) / avgdl));
    }, 0);
    expect(score).toBeCloseTo(expected, 6);
  });

  it('keeps the statistics equal to a recount through stores, edits, moves, promotions and deletes', async () => {
    const { memory: edited } = await store(w.agent, w.project, { content: 'Temporary note about Redis eviction' });
    const { memory: deleted } = await store(w.agent, w.project, { content: 'Temporary note about HAProxy timeouts' });
    const patched = await w.agent.patch(memoriesUrl(w.project, `/${edited.id}`), {
      content: 'Redis uses allkeys-lru eviction in production',
    });
    expect(patched.status).toBe(200);
    expect((await w.agent.delete(memoriesUrl(w.project, `/${deleted.id}`))).status).toBe(204);
    await store(w.wideAgent, w.otherProject, { content: 'Maria is not in this project; Redis is' });
    // A team memory counts tenant-wide from the start, and a promoted one moves there.
    await store(w.admin, w.project, { content: 'Every project deploys through Argo CD', scope: 'team' });
    const { memory: promoted } = await store(w.agent, w.project, { content: 'Staging resets nightly at 02:00' });
    await data.query(`UPDATE ${schema()}.memories SET scope = 'team' WHERE id = $1`, [promoted.id]);
    expect(await kept('memories')).toEqual(await recount('memories'));
    await fold();
    expect(await data.query(`SELECT count(*)::int AS n FROM ${schema()}.term_count_deltas`)).toEqual([{ n: 0 }]);
    expect(await kept('memories')).toEqual(await recount('memories'));
  });

  it('vacuums the term tables after a large fold, so rankings stop stepping over the deltas it deleted', async () => {
    const vacuums = async () => {
      const [row] = await data.query<{ n: number }[]>(
        `SELECT vacuum_count::int AS n FROM pg_stat_user_tables WHERE relid = '${schema()}.term_count_deltas'::regclass`,
      );
      return row?.n ?? 0;
    };
    const before = await vacuums();
    // A small fold leaves vacuuming to autovacuum.
    await store(w.agent, w.project, { content: 'One more note about the Redis eviction policy' });
    await fold();
    expect(await vacuums()).toBe(before);
    // 10,000 deltas that cancel out (as a bulk load and its deletion would): no statistic changes.
    const [project] = await data.query<{ id: string }[]>(`SELECT id FROM ${schema()}.projects WHERE slug = $1`, [
      w.project,
    ]);
    await data.query(
      `INSERT INTO ${schema()}.term_count_deltas (corpus, scope, lexeme, docs, tokens)
       SELECT 'memories', $1::uuid, 'bulk' || (g % 5000), CASE WHEN g < 5000 THEN 1 ELSE -1 END, 0
       FROM generate_series(0, 9999) g`,
      [project?.id],
    );
    const statistics = await kept('memories');
    expect((await fold()).deltas).toBeGreaterThanOrEqual(10_000);
    expect(await vacuums()).toBe(before + 1);
    expect(await kept('memories')).toEqual(statistics);
  });

  it('keeps each delta lookup on the index in a cached generic plan, however few deltas the last ANALYZE saw', async () => {
    // After a fold the deltas table is empty and analysed so; writes then append to it until the
    // next fold. A plan cached meanwhile (prepared statements go generic) must not scan it once
    // per query lexeme (issue 22: 4 ms of a 5 ms contradiction check at 100k memories).
    const [project] = await data.query<{ id: string }[]>(`SELECT id FROM ${schema()}.projects WHERE slug = $1`, [
      w.project,
    ]);
    const deltas = (count: number, prefix: string) =>
      data.query(
        `INSERT INTO ${schema()}.term_count_deltas (corpus, scope, lexeme, docs, tokens)
         SELECT 'memories', $1::uuid, '${prefix}' || (g % ($2 / 2)), CASE WHEN g < $2 / 2 THEN 1 ELSE -1 END, 0
         FROM generate_series(0, $2 - 1) g`,
        [project?.id, count],
      );
    // A bulk load's deltas folded (cancelling out): the table is empty, its index keeps the pages.
    await deltas(200_000, 'bulk');
    await fold();
    // Autovacuum analyses the table while it is small again; writes go on appending.
    await deltas(10, 'early');
    await data.query(`ANALYZE ${schema()}.term_count_deltas`);
    await deltas(4000, 'filler');
    const query = 'Which bucket does the nightly backup write to?';
    const statement = api.app.get(HybridSearch).statement(
      api.app.get(MemoriesRepository).rankable({
        scope: { projectIds: [project?.id ?? ''], includeTenantWide: true, viewer: SYSTEM_VIEWER },
      }),
      {
        keyword: { query, matchBudget: DEFAULT_MATCH_BUDGET, entities: queryEntities(query), limit: 50, maxTerms: 24 },
      },
    );
    const runner = data.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query(`SELECT set_config('search_path', $1, true)`, [`${schema()}, public`]);
      await runner.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
      await runner.query(`PREPARE keyword_generic AS ${statement.text}`);
      // EXECUTE takes no bound parameters: the values as literals, quoted by PostgreSQL itself.
      const quoted = statement.values.map((_, i) => `quote_nullable($${i + 1}::text)`).join(` || ', ' || `);
      const [{ args }] = await runner.query(`SELECT ${quoted} AS args`, [...statement.values]);
      const plan = (await runner.query(`EXPLAIN EXECUTE keyword_generic(${args})`)).map(
        (row: { 'QUERY PLAN': string }) => row['QUERY PLAN'],
      );
      expect(plan.join('\n')).toContain('term_count_deltas_lexeme on term_count_deltas');
      expect(plan.join('\n')).not.toContain('Seq Scan on term_count_deltas');
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect((await fold()).deltas).toBe(4010);
  });

  it('ranks a fresh project the same before and after ANALYZE and after folding', async () => {
    const questions = ['What does Maria prefer for merges?', 'when is the search index rebuilt', 'Maria Stripe secret'];
    const before = await Promise.all(questions.map((q) => scores(q)));
    expect(before.every((ranking) => Object.keys(ranking).length > 0)).toBe(true);
    await data.query(`ANALYZE ${schema()}.memories`);
    expect(await Promise.all(questions.map((q) => scores(q)))).toEqual(before);
    await fold();
    expect(await Promise.all(questions.map((q) => scores(q)))).toEqual(before);
  });

  it("does not weigh one project's terms by another project's vocabulary", async () => {
    const before = await scores('Maria changelog release train');
    for (let i = 0; i < 30; i += 1) {
      await store(w.wideAgent, w.otherProject, {
        content: `Changelog entry ${i}: the release train shipped build ${i}`,
      });
    }
    expect(await scores('Maria changelog release train')).toEqual(before);
  });

  it('scores the rows of common terms together, not each common term whole, and still fills a page', async () => {
    // In otherProject: 40 turns about quokkas, 40 about wombats, 3 about both (and 40 about numbats). With a budget of 10
    // rows, "quokka wombat" cannot take the rarest term whole (43 rows): candidates are the rows
    // holding both (3) and a page of the rest of the rarest term; "sighting burrow" (never
    // together) still gives a page.
    const [other] = await data.query<{ id: string }[]>(`SELECT id FROM ${schema()}.projects WHERE slug = $1`, [
      w.otherProject,
    ]);
    const turns = [
      ...Array.from({ length: 40 }, (_, i) => `Quokka sighting ${i} near the ridge trail`),
      ...Array.from({ length: 40 }, (_, i) => `Wombat burrow ${i} found by the creek`),
      'A quokka and a wombat shared the shelter',
      'The wombat chased the quokka off the path',
      'Quokka, wombat and one dingo at the water hole',
      // Two words that always occur together: far more rows hold both than their frequencies predict.
      ...Array.from({ length: 40 }, (_, i) => `Numbat clip ${i} from the trail camera`),
    ];
    for (const content of turns) await store(w.wideAgent, w.otherProject, { content });
    const corpus = api.app.get(MemoriesRepository).rankable({
      scope: { projectIds: [other?.id ?? ''], includeTenantWide: false, viewer: SYSTEM_VIEWER },
    });
    const rank = async (query: string, matchBudget: number) => {
      const statement = api.app.get(HybridSearch).statement(corpus, {
        keyword: { query, matchBudget, entities: '', limit: 5, maxTerms: 24 },
      });
      const runner = data.createQueryRunner();
      await runner.startTransaction();
      try {
        await runner.query(`SELECT set_config('search_path', $1, true)`, [`${schema()}, public`]);
        const [{ 'QUERY PLAN': plan }] = await runner.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, [
          ...statement.values,
        ]);
        const rows: { id: string }[] = await runner.query(statement.text, [...statement.values]);
        return { ids: rows.map((row) => row.id), scored: candidatesScored(plan) };
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
    };
    const both = await data.query<{ id: string }[]>(
      `SELECT id FROM ${schema()}.memories WHERE project_id = $1 AND content ILIKE '%quokka%' AND content ILIKE '%wombat%'`,
      [other?.id],
    );
    const bounded = await rank('quokka wombat', 10);
    const whole = await rank('quokka wombat', DEFAULT_MATCH_BUDGET);
    expect(whole.scored).toBe(83);
    expect(bounded.scored).toBeLessThanOrEqual(3 + 5);
    // The rows holding both words rank first either way.
    expect(new Set(bounded.ids.slice(0, 3))).toEqual(new Set(both.map((row) => row.id)));
    expect(bounded.ids.slice(0, 3)).toEqual(whole.ids.slice(0, 3));
    // Words that always meet: the rows holding both are read up to the budget, not all 40.
    const together = await rank('numbat clip', 10);
    expect(together.ids).toHaveLength(5);
    expect(together.scored).toBeLessThanOrEqual(10);
    // Common words that never meet: no row holds both, and the rarest word still gives a page.
    const apart = await rank('sighting burrow', 10);
    expect(apart.ids).toHaveLength(5);
    expect(apart.scored).toBeLessThanOrEqual(5);
  });

  it('still finds a turn by the name most turns share', async () => {
    // "maria" is in 9 of 10 turns: rare terms select candidates first, the name still scores.
    const ranking = await keyword('Maria');
    expect(ranking.length).toBeGreaterThanOrEqual(9);
  });

  it('asks the worker for a fold every FOLD_AFTER_WRITES writes in a tenant (stores, edits, deletes), one pending job at a time', async () => {
    // The rankers sum every unfolded delta of a term: writes must not wait for the sweep's clock.
    const queue = api.app.get(JobQueue).queue('maintenance');
    const jobId = `term-fold-${w.tenant.id}`;
    let written = 0;
    const notes: string[] = [];
    const storeNote = async () => {
      const { memory } = await store(w.agent, w.project, {
        content: `Fold cadence note ${written++}: the staging cluster was patched`,
      });
      notes.push(memory.id);
    };
    // The process's count is somewhere below the threshold: at most FOLD_AFTER_WRITES stores reach it.
    await (await queue.getJob(jobId))?.remove();
    while (!(await queue.getJob(jobId))) {
      expect(written).toBeLessThan(FOLD_AFTER_WRITES);
      await storeNote();
    }
    const job = await queue.getJob(jobId);
    expect(job?.name).toBe('term-statistics-fold');
    expect(job?.data).toEqual({ tenantId: w.tenant.id });

    // From a fresh count: one store short of the threshold asks nothing, the next asks again.
    await job?.remove();
    for (let i = 1; i < FOLD_AFTER_WRITES; i++) await storeNote();
    expect(await queue.getJob(jobId)).toBeUndefined();
    await storeNote();
    expect((await queue.getJob(jobId))?.data).toEqual({ tenantId: w.tenant.id });

    // Edits (tags are indexed words too) and deletes add deltas as well: they count alike.
    await (await queue.getJob(jobId))?.remove();
    const half = FOLD_AFTER_WRITES / 2;
    for (const id of notes.slice(0, half)) {
      const edited = await w.agent.patch(memoriesUrl(w.project, `/${id}`), { tags: ['cadence'] });
      expect(edited.status).toBe(200);
    }
    for (const id of notes.slice(half, FOLD_AFTER_WRITES - 1))
      expect((await w.agent.delete(memoriesUrl(w.project, `/${id}`))).status).toBe(204);
    expect(await queue.getJob(jobId)).toBeUndefined();
    expect((await w.agent.delete(memoriesUrl(w.project, `/${notes[FOLD_AFTER_WRITES - 1]}`))).status).toBe(204);
    expect((await queue.getJob(jobId))?.data).toEqual({ tenantId: w.tenant.id });

    // The fold the job runs leaves no delta behind.
    await fold();
    const [{ n }] = await data.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${schema()}.term_count_deltas`);
    expect(n).toBe(0);
  });
});

/**
 * Candidates the keyword ranker scored, from an EXPLAIN ANALYZE JSON plan: the rows of the
 * Append that gathers them from the memories table (on a table this small the planner may read
 * the project's rows and filter them; on a large one the GIN index reads only the candidates).
 */
function candidatesScored(plans: { Plan: PlanNode }[]): number {
  const readsMemories = (node: PlanNode): boolean =>
    node['Relation Name'] === 'memories' || (node.Plans ?? []).some(readsMemories);
  const visit = (node: PlanNode): number =>
    node['Node Type'] === 'Append' && readsMemories(node)
      ? node['Actual Rows'] * node['Actual Loops']
      : (node.Plans ?? []).reduce((sum, child) => sum + visit(child), 0);
  return plans.reduce((sum, plan) => sum + visit(plan.Plan), 0);
}

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Actual Rows': number;
  readonly 'Actual Loops': number;
  readonly Plans?: PlanNode[];
}
