import { type SqlParams } from '@cairn/db';
import { type Corpus } from '@cairn/search';
import { type MemoryScope } from './contract/memory-filter';
import { memoryCorpus } from './memory-corpus.sql';

/**
 * Where a memory's contradiction candidates are ranked: the live memories of its scope, the
 * memory itself left out. HybridSearch.rank (@cairn/search) renders its keyword ranker around it.
 */
export function contradictionCorpus(scope: MemoryScope, selfId: string, params: SqlParams): Corpus {
  const corpus = memoryCorpus({ scope }, params);
  const self = params.add(selfId);
  return { ...corpus, where: `${corpus.where} AND c.id <> ${self}` };
}

/** The ranked candidates' text for the detector; `$1` is their ids. */
export const CANDIDATE_CONTENTS_SQL = `SELECT id, content FROM memories WHERE id = ANY($1::uuid[])`;
