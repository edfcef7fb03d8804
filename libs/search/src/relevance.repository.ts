import { Injectable } from '@nestjs/common';
import { TenantDb } from '@cairn/tenancy';
import { type Corpus } from './contract/corpus';
import { type RelevanceSignals } from './contract/relevance';
import { type RankingParams } from './ranking.repository';
import { type RelevancePlan, relevanceStatement } from './relevance.sql';

interface RelevanceRow {
  id: string;
  coverage: number;
  cosine: number | null;
}

/** Reads the absolute relevance signals of ranked items (relevanceStatement), inside the caller's tenant transaction. */
@Injectable()
export class RelevanceRepository {
  constructor(private readonly db: TenantDb) {}

  async signals(corpus: Corpus, params: RankingParams, plan: RelevancePlan): Promise<Map<string, RelevanceSignals>> {
    if (plan.ids.length === 0) return new Map();
    const rows = await this.db.queryPrepared<RelevanceRow>(relevanceStatement(corpus, params, plan), params.values);
    return new Map(
      rows.map((row) => [
        row.id,
        { coverage: Number(row.coverage), cosine: row.cosine === null ? null : Number(row.cosine) },
      ]),
    );
  }
}
