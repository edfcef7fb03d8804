import { Injectable } from '@nestjs/common';
import { type EmbeddingModel } from '@cairn/embeddings';
import { SNAPSHOT_EXAMPLE as EX, SqlParams, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type CorpusQuery } from './contract/corpus';
import { type RelevanceSignals } from './contract/relevance';
import { type RelevancePlan, relevanceStatement } from './relevance.sql';

interface RelevanceRow {
  id: string;
  coverage: number;
  cosine: number | null;
}

/** Examples for the SQL snapshots (@SqlSnapshot): a provider model's hybrid search, and a keyword one. */
const EXAMPLE_MODEL: EmbeddingModel = { id: EX.modelId, provider: 'ollama', dimensions: 768, builtIn: false };
const EXAMPLE_PLAN: RelevancePlan = {
  query: 'how are staging deploys triggered by Helm?',
  entities: 'Helm',
  maxTerms: 24,
  ids: [EX.memoryId],
};

/**
 * Reads the absolute relevance signals of ranked items (relevanceStatement) over the owner's
 * corpus, inside the caller's tenant transaction: one statement, its parameters its own.
 */
@Injectable()
export class RelevanceRepository {
  constructor(private readonly db: TenantDb) {}

  @SqlSnapshot(
    {
      name: 'coverage and cosine (a search with a vector)',
      params: [
        EX.corpus,
        { ...EXAMPLE_PLAN, semantic: { model: EXAMPLE_MODEL, vector: new Float32Array(768).fill(0.036) } },
      ],
    },
    { name: 'coverage only (a keyword search)', params: [EX.corpus, EXAMPLE_PLAN] },
  )
  async signals(corpus: CorpusQuery, plan: RelevancePlan): Promise<Map<string, RelevanceSignals>> {
    if (plan.ids.length === 0) return new Map();
    const params = new SqlParams();
    const text = relevanceStatement(corpus, params, plan);
    const rows = await this.db.queryPrepared<RelevanceRow>(text, params.values);
    return new Map(
      rows.map((row) => [
        row.id,
        { coverage: Number(row.coverage), cosine: row.cosine === null ? null : Number(row.cosine) },
      ]),
    );
  }
}
