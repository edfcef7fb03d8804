import { type CorpusDefinition } from '@cairn/search';

/**
 * Code passages as the shared rankers see them (@cairn/search renders the rankers around it):
 * the passages of one indexed branch. Term statistics are kept per project (every branch of it
 * together: close enough for IDF, and branches mostly share their text). A passage never changes
 * (new content is a new file row), so any vector of the active model is current.
 */
export const CODE_CHUNKS_CORPUS: CorpusDefinition<{ readonly projectId: string; readonly branchId: string }> = {
  table: 'code_chunks',
  signals: { importance: false, confidence: false, pinned: false },
  termScopes: (filter) => [filter.projectId],
  condition: (filter, binder, alias) => `${alias}.branch_id = ${binder.add(filter.branchId)}::uuid`,
};
