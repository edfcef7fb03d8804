import { SqlParams } from '@cairn/db';
import { Injectable } from '@nestjs/common';
import { TenantDb } from '@cairn/tenancy';
import { CANDIDATE_CONTENTS_SQL, contradictionCorpus } from './contradiction-candidates.sql';
import { type MemoryScope } from './contract/memory-filter';
import { type RankingCorpus } from './memory-corpus.sql';

/** The statements of the contradiction check (ContradictionsService), inside the writer's transaction. */
@Injectable()
export class ContradictionCandidatesRepository {
  constructor(private readonly db: TenantDb) {}

  /** What the keyword ranker searches for candidates of memory `selfId`: its scope, without itself. */
  corpus(scope: MemoryScope, selfId: string): RankingCorpus {
    const params = new SqlParams();
    return { corpus: contradictionCorpus(scope, selfId, params), params };
  }

  /** The content of the ranked candidates, in no particular order. */
  contents(ids: readonly string[]): Promise<{ id: string; content: string }[]> {
    return this.db.query<{ id: string; content: string }>(CANDIDATE_CONTENTS_SQL, [ids]);
  }
}
