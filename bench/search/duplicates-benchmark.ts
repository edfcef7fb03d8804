/**
 * `GET …/memories/duplicates` at each corpus size (issue 13): the latency of a page over HTTP
 * (`app.inject`, the first page and the pages after it by `nextCursor`), against the statements
 * the endpoint ran before pages existed (equal text by hashing the whole project, then a k-NN
 * probe for each of the 500 newest memories), timed in the same run on the same rows. The old
 * statements run in a tenant transaction with the same vector settings; one that hits the
 * statement timeout counts as the timeout (a lower bound), as the endpoint answered 500 then.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { SqlParams } from '@cairn/db';
import { assertSafeModelId } from '@cairn/embeddings';

import { vectorSearchSettings } from '@cairn/search';
import { waitForIdlePool } from '../lib/pool';
import { type ResultRow, row } from '../lib/report';
import { summarize } from '../lib/stats';
import { corpusMemory } from './corpus';
import { createSearchTenant, dropSearchTenant, type SearchApp, type SearchTenant, startSearchApp } from './fixture';
import { seedCairn } from './seed';
import { sizeLabel } from './rows';

const PAGES = 20;
const BASELINE_RUNS = 3;
const LIMIT = 50;
/** One memory in this many repeats an earlier one's text: some pairs to find. */
const COPY_EVERY = 100;

export interface DuplicatesBenchInput {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly sizes: readonly number[];
  readonly log: (line: string) => void;
}

export async function benchDuplicates(
  input: DuplicatesBenchInput,
): Promise<{ rows: ResultRow[]; notes: string[]; data: unknown }> {
  const bench = await startSearchApp(input.databaseUrl, input.redisUrl, 'hash');
  const runStart = new Date();
  const rows: ResultRow[] = [];
  const results: unknown[] = [];
  try {
    for (const size of [...input.sizes].sort((a, b) => a - b)) {
      const label = sizeLabel(size);
      const target = await createSearchTenant(bench, `dup-${label}`);
      try {
        const corpus = Array.from({ length: size }, (_, i) =>
          i % COPY_EVERY === COPY_EVERY - 1
            ? { ...corpusMemory(i), content: corpusMemory(i - 7).content }
            : corpusMemory(i),
        );
        input.log(`duplicates ${label}: seeding ${size} memories (1-min load average ${loadavg()[0]?.toFixed(2)})`);
        const ids = Array.from({ length: size }, () => randomUUID());
        await seedCairn(bench, target, corpus, ids, runStart, input.log);
        await waitForIdlePool(bench.dataSource);

        const loadBefore = loadavg()[0] ?? 0;
        const pages = await measurePages(bench, target);
        const baseline = await measureOldQuery(bench, target);
        const loadAfter = loadavg()[0] ?? 0;
        const paged = summarize(pages.ms);
        const old = summarize(baseline.ms);
        input.log(
          `  page p50 ${paged.p50.toFixed(1)} ms (p95 ${paged.p95.toFixed(1)}, ${pages.pairs} pairs in ${pages.ms.length} pages); ` +
            `old query p50 ${old.p50.toFixed(0)} ms${baseline.timedOut ? ' (statement timeout)' : ''}; ` +
            `load ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
        );
        const oldName = `old whole-project query${baseline.timedOut ? ' (timed out: ≥)' : ''}`;
        rows.push(
          row(`duplicates ${label}`, 'page p50', 'ms', paged.p50, { name: oldName, value: old.p50 }),
          row(`duplicates ${label}`, 'page p95', 'ms', paged.p95, { name: oldName, value: old.p95 }),
        );
        results.push({ size, paged, old, oldTimedOut: baseline.timedOut, pairs: pages.pairs, loadBefore, loadAfter });
      } finally {
        await dropSearchTenant(bench, target);
      }
    }
  } finally {
    await bench.close();
  }
  const notes = [
    `duplicates: ${PAGES} pages of limit ${LIMIT} over HTTP (first page, then by nextCursor) against the pre-paging ` +
      `statements ×${BASELINE_RUNS}; one memory in ${COPY_EVERY} repeats another's text; statement timeout ` +
      `${bench.config.database.statementTimeoutMs} ms`,
  ];
  return { rows, notes, data: { pages: PAGES, limit: LIMIT, results } };
}

async function measurePages(bench: SearchApp, target: SearchTenant): Promise<{ ms: number[]; pairs: number }> {
  const ms: number[] = [];
  let pairs = 0;
  let cursor: string | null = null;
  for (let page = 0; page < PAGES; page += 1) {
    const url = `/v1/projects/${target.projectSlug}/memories/duplicates?limit=${LIMIT}${cursor ? `&cursor=${cursor}` : ''}`;
    const began = performance.now();
    const response = await bench.client.send('GET', url, target.token);
    ms.push(performance.now() - began);
    if (response.status !== 200) throw new Error(`duplicates page: ${response.status} ${response.body.slice(0, 300)}`);
    const body = JSON.parse(response.body) as { pairs: unknown[]; nextCursor: string | null };
    pairs += body.pairs.length;
    cursor = body.nextCursor;
  }
  return { ms, pairs };
}

/** The two statements `duplicates` ran before it had pages (as of commit 20d11fd). */
async function measureOldQuery(bench: SearchApp, target: SearchTenant): Promise<{ ms: number[]; timedOut: boolean }> {
  // Memory's filter for a job (every scope) over the project and the team memories, as it rendered then.
  const live = (params: SqlParams) =>
    `c.deleted_at IS NULL AND (c.project_id = ANY(${params.add([target.projectId])}::uuid[]) OR c.scope = 'team')` +
    ' AND c.archived_at IS NULL AND c.superseded_by IS NULL';
  const model = bench.embedder.model;
  const modelId = assertSafeModelId(model.id);
  const dims = Math.trunc(model.dimensions);
  const ms: number[] = [];
  let timedOut = false;
  for (let run = 0; run < BASELINE_RUNS; run += 1) {
    const began = performance.now();
    try {
      await bench.entry.run(target.tenant, () =>
        bench.tx.run(async () => {
          const same = new SqlParams();
          await bench.db.query(
            `WITH live AS MATERIALIZED (
               SELECT c.id, md5(lower(regexp_replace(btrim(c.content), '\\s+', ' ', 'g'))) AS norm
               FROM memories c WHERE ${live(same)}
             )
             SELECT x.id AS a, y.id AS b, 1::float8 AS similarity
             FROM live x JOIN live y ON x.norm = y.norm AND x.id < y.id
             ORDER BY x.id, y.id LIMIT ${same.add(LIMIT)}`,
            same.values,
          );
          const near = new SqlParams();
          const current = `c.embedding_model = '${modelId}' AND c.embedded_hash = c.content_hash`;
          await bench.db.query(
            `WITH recent AS MATERIALIZED (
               SELECT c.id, c.embedding FROM memories c
               WHERE ${current} AND ${live(near)}
               ORDER BY c.created_at DESC, c.id LIMIT ${near.add(500)}
             )
             SELECT r.id AS a, n.id AS b, n.similarity
             FROM recent r
             CROSS JOIN LATERAL (
               SELECT c.id, (1 - (c.embedding::vector(${dims}) <=> r.embedding::vector(${dims})))::float8 AS similarity
               FROM memories c
               WHERE ${current} AND c.id <> r.id AND ${live(near)}
               ORDER BY c.embedding::vector(${dims}) <=> r.embedding::vector(${dims})
               LIMIT ${near.add(5)}
             ) n
             WHERE n.similarity >= ${near.add(0.92)}::float8`,
            near.values,
          );
        }, vectorSearchSettings(5)),
      );
    } catch (error) {
      if ((error as { code?: unknown }).code !== '57014') throw error;
      timedOut = true;
    }
    ms.push(performance.now() - began);
  }
  return { ms, timedOut };
}
