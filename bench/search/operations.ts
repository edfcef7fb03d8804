/**
 * What one measured Cairn operation is: a recall in-process (MemoryRecall.recall inside
 * TenantEntry.run, as the HTTP interceptor would set it up), the ranking alone (HybridSearch.rank
 * in a tenant transaction, no project lookup and no access recording), the same recall over
 * `app.inject` with a session token, and a store in-process (MemoryWriter.store) or over HTTP.
 */
import { type StoreMemoryInput, SYSTEM_VIEWER } from '@cairn/memory';
import { normaliseQuery, type SearchMode, vectorSearchSettings } from '@cairn/search';
import { type CorpusMemory } from './corpus';
import { type SearchApp, type SearchTenant } from './fixture';

export const LIMIT = 10;

export interface CairnOperations {
  readonly recall: (mode: SearchMode) => (query: number) => Promise<number[]>;
  readonly rankOnly: (mode: SearchMode) => (query: number) => Promise<number[]>;
  readonly httpRecall: (mode: SearchMode) => (query: number) => Promise<number[]>;
  readonly store: (item: number) => Promise<void>;
  readonly httpStore: (item: number) => Promise<void>;
}

/** Maps memory ids back to corpus indices (a Map, or a function of the id at a million memories). */
export interface CorpusIndex {
  get(id: string): number | undefined;
}

/** `indexOf` maps memory ids back to corpus indices (unknown ids map to -1). */
export function cairnOperations(
  bench: SearchApp,
  target: SearchTenant,
  queries: readonly string[],
  extra: readonly CorpusMemory[],
  indexOf: CorpusIndex,
): CairnOperations {
  const texts = queries.map(normaliseQuery);
  const toIndices = (ids: readonly string[]) => ids.map((id) => indexOf.get(id) ?? -1);
  const inTenant = <T>(work: () => Promise<T>): Promise<T> => bench.entry.run(target.tenant, work);
  const searchUrl = `/v1/projects/${target.projectSlug}/memories/search`;
  const storeUrl = `/v1/projects/${target.projectSlug}/memories`;
  const fields = (item: number) => {
    const memory = extra[item];
    if (!memory) throw new Error(`no extra memory ${item}`);
    const { content, category, tags, keywords, importance, confidence } = memory;
    return { content, category, tags, keywords, importance, confidence, pinned: false };
  };

  return {
    recall: (mode) => async (query) => {
      const result = await inTenant(() =>
        bench.recall.recall(target.projectSlug, SYSTEM_VIEWER, {
          query: texts[query] ?? '',
          mode,
          limit: LIMIT,
          explain: false,
          filter: {},
        }),
      );
      return toIndices(result.results.map((hit) => hit.memory.id));
    },
    rankOnly: (mode) => async (query) => {
      const ranked = await inTenant(() =>
        bench.tx.run(async () => {
          const corpus = bench.memories.rankable({
            scope: { projectIds: [target.projectId], includeTenantWide: true, viewer: SYSTEM_VIEWER },
          });
          return (await bench.search.rank(corpus, { query: texts[query] ?? '', mode, limit: LIMIT })).ranked;
        }, vectorSearchSettings(LIMIT)),
      );
      return toIndices(ranked.map((hit) => hit.id));
    },
    httpRecall: (mode) => async (query) => {
      const response = await bench.client.send('POST', searchUrl, target.token, {
        query: queries[query],
        mode,
        limit: LIMIT,
      });
      if (response.status !== 200) throw new Error(`search: ${response.status} ${response.body.slice(0, 300)}`);
      const body = JSON.parse(response.body) as { results: { memory: { id: string } }[] };
      return toIndices(body.results.map((hit) => hit.memory.id));
    },
    store: async (item) => {
      const input: StoreMemoryInput = { ...fields(item), source: null, scope: 'project', supersedes: [] };
      const result = await inTenant(() => bench.writer.store(target.projectSlug, target.principal, input));
      if (result.embedding !== 'queued') throw new Error(`store: embedding job ${result.embedding}`);
    },
    httpStore: async (item) => {
      const response = await bench.client.send('POST', storeUrl, target.token, fields(item));
      if (response.status !== 201) throw new Error(`store: ${response.status} ${response.body.slice(0, 300)}`);
    },
  };
}
