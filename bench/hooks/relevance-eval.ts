import { EMBEDDER, type Embedder, EmbeddingProcessor, EmbeddingTargets } from '@cairn/embeddings';
import { TermStatistics } from '@cairn/search';
import { TenantEntry, TenantsService, TenantTransaction, toTenantRef } from '@cairn/tenancy';
import { type BenchApp } from '../lib/app';
import { type CaseKind, type RelevanceCase, type RelevanceSet } from './relevance-set';

/** Results asked for per prompt: deeper than the hook injects, so a threshold's recall is measured past the page. */
export const EVAL_LIMIT = 10;

/** One ranked result of one prompt, with the signals relevance is made of. */
export interface ObservedHit {
  readonly key: string;
  readonly rank: number;
  readonly coverage: number;
  readonly cosine: number | null;
  /** What the server computed with its own calibration. */
  readonly relevance: number;
}

export interface Observation {
  readonly project: string;
  readonly prompt: string;
  readonly kind: CaseKind;
  readonly relevant: ReadonlySet<string>;
  readonly hits: readonly ObservedHit[];
}

export interface ObservedRun {
  /** The embedding model the memories and prompts were embedded with. */
  readonly embedder: string;
  readonly observations: readonly Observation[];
}

interface SearchAnswer {
  results: {
    memory: { id: string };
    relevance?: number;
    explain?: { relevance?: { coverage: number; cosine: number | null } };
  }[];
  report: { mode: string; embeddingModel: string | null };
}

/**
 * Stores the set's memories in a fresh tenant (one project each, through the REST API as an
 * agent would), embeds them with the app's embedder (the worker's processor, in process), then
 * asks every prompt in its project with no threshold and records each result's signals. What a
 * threshold would keep is then computed offline (relevance-metrics.ts), for any threshold.
 */
export async function observeRelevance(
  bench: Pick<BenchApp, 'app' | 'config' | 'client' | 'adminToken'>,
  set: RelevanceSet,
  log: (line: string) => void,
): Promise<ObservedRun> {
  const { client, adminToken, app } = bench;
  const slug = `relevance-${Date.now().toString(36)}`;
  await client.expectJson(201, 'POST', '/v1/tenants', adminToken, {
    slug,
    name: 'Relevance calibration',
  });
  for (const project of set.projects) {
    await client.expectJson(201, 'POST', `/v1/tenants/${slug}/projects`, adminToken, {
      slug: project.slug,
      name: project.slug,
    });
  }
  const { token } = await client.expectJson<{ token: string }>(201, 'POST', `/v1/tenants/${slug}/tokens`, adminToken, {
    role: 'agent',
    projects: '*',
    agentId: 'calibration',
  });
  const keyOf = new Map<string, string>();
  for (const project of set.projects) {
    for (const memory of project.memories) {
      const stored = await client.expectJson<{ memory: { id: string } }>(
        201,
        'POST',
        `/v1/projects/${project.slug}/memories`,
        token,
        { content: memory.content, category: memory.category, tags: memory.tags },
      );
      keyOf.set(stored.memory.id, memory.key);
    }
  }
  const embedder = app.get<Embedder>(EMBEDDER);
  const processor = new EmbeddingProcessor(
    embedder,
    bench.config,
    app.get(EmbeddingTargets),
    app.get(TenantTransaction),
  );
  const ref = toTenantRef(await app.get(TenantsService).getBySlug(slug));
  const entry = app.get(TenantEntry);
  await entry.run(ref, () => processor.process({ target: 'memory', ids: [...keyOf.keys()] }));
  await entry.run(ref, () => app.get(TermStatistics).fold());
  log(`stored and embedded ${keyOf.size} memories in ${set.projects.length} projects (${embedder.model.id})`);

  const observations: Observation[] = [];
  for (const testCase of set.cases) {
    observations.push(await observe(bench, token, testCase, keyOf));
  }
  return { embedder: embedder.model.id, observations };
}

async function observe(
  bench: Pick<BenchApp, 'client'>,
  token: string,
  testCase: RelevanceCase,
  keyOf: ReadonlyMap<string, string>,
): Promise<Observation> {
  const answer = await bench.client.expectJson<SearchAnswer>(
    200,
    'POST',
    `/v1/projects/${testCase.project}/memories/search`,
    token,
    { query: testCase.prompt, limit: EVAL_LIMIT, explain: true },
  );
  const hits = answer.results.map((result, index) => {
    const signals = result.explain?.relevance;
    if (!signals || result.relevance === undefined) throw new Error(`no relevance for "${testCase.prompt}"`);
    return {
      key: keyOf.get(result.memory.id) ?? result.memory.id,
      rank: index + 1,
      coverage: signals.coverage,
      cosine: signals.cosine,
      relevance: result.relevance,
    };
  });
  return { ...testCase, hits };
}
