import { Injectable } from '@nestjs/common';
import { type CorpusQuery } from '@cairn/search';
import { NoSqlSnapshot, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type MemoryScope } from './contract/memory-filter';
import { memoryCorpus } from './memory-corpus.sql';
import { authoredBySql } from './memory-ownership';

/** The ranked candidates' text for the detector; `$1` is their ids. */
const CANDIDATE_CONTENTS_SQL = `SELECT id, content FROM memories WHERE id = ANY($1::uuid[])`;

/** The statements of the contradiction check (ContradictionsService), inside the writer's transaction. */
@Injectable()
export class ContradictionCandidatesRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * Where a memory's contradiction candidates are ranked: the live memories of its scope, the
   * memory itself left out. HybridSearch.rank (@cairn/search) renders its keyword ranker around it.
   */
  @NoSqlSnapshot(
    'returns the corpus as a value: search renders its condition inside the keyword ranking statement (libs/memory/sql/contradiction-candidates.sql)',
  )
  corpus(scope: MemoryScope, selfId: string): CorpusQuery {
    return memoryCorpus({ scope, excludeId: selfId });
  }

  /** The content of the ranked candidates, in no particular order. */
  @SqlSnapshot({ params: [[EX.memoryId, EX.otherMemoryId]] })
  contents(ids: readonly string[]): Promise<{ id: string; content: string }[]> {
    return this.db.query<{ id: string; content: string }>(CANDIDATE_CONTENTS_SQL, [ids]);
  }

  /**
   * Queues a review (memory_reviews, kind `contradiction`) for each memory of `otherIds` that
   * another author wrote: not authored, by memory's ownership rule, by the writer of the new
   * memory (its author columns). One statement, and only when the check found strong
   * contradictions; a pending review of the same pair is kept. A pair with a private memory is
   * not queued: the queue shows both memories to the project's reviewers, who may not see it
   * (the writer still gets the warning).
   */
  @SqlSnapshot({ params: [EX.projectId, EX.otherMemoryId, [EX.memoryId]] })
  async queueReviews(projectId: string, memoryId: string, otherIds: readonly string[]): Promise<void> {
    if (otherIds.length === 0) return;
    const sameAuthor = authoredBySql('o', {
      userId: 'n.author_user_id',
      agentId: 'n.author_agent_id',
      tokenId: 'n.author_token_id',
    });
    await this.db.query(
      `INSERT INTO memory_reviews (id, project_id, kind, memory_id, other_memory_id,
         proposed_by_user_id, proposed_by_agent_id, proposed_by_token_id)
       SELECT gen_random_uuid(), $1, 'contradiction', n.id, o.id, n.author_user_id, n.author_agent_id, n.author_token_id
       FROM memories n JOIN memories o ON o.id = ANY($3::uuid[])
       WHERE n.id = $2 AND NOT ${sameAuthor} AND n.scope <> 'private' AND o.scope <> 'private'
       ON CONFLICT DO NOTHING`,
      [projectId, memoryId, otherIds],
    );
  }
}
