import { type CorpusDefinition } from '@cairn/search';

/**
 * Chunks count only while their document is live: expired ones vanish from search at once,
 * before the purge job gets to them. Over alias `chunk` of kb_chunks.
 */
export const liveDocument = (chunk: string) =>
  `EXISTS (SELECT 1 FROM kb_documents d WHERE d.id = ${chunk}.document_id AND d.expires_at > now())`;

/**
 * Knowledge-base chunks as the shared rankers see them (@cairn/search renders the rankers
 * around it): the chunks of live documents of the given projects. Term statistics are per
 * project, like the filter. A chunk's text never changes, so any vector of the active model is
 * current; chunks carry no importance, confidence or pin, and no time of their own.
 */
export const KB_CHUNKS_CORPUS: CorpusDefinition<{ readonly projectIds: readonly string[] }> = {
  table: 'kb_chunks',
  signals: { importance: false, confidence: false, pinned: false },
  termScopes: (filter) => filter.projectIds,
  condition: (filter, binder, alias) =>
    `${alias}.project_id = ANY(${binder.add(filter.projectIds)}::uuid[]) AND ${liveDocument(alias)}`,
};
