import { Injectable } from '@nestjs/common';
import { type BackfillState, EmbeddingBackfillsRepository } from './embedding-backfills.repository';

/** What other capabilities may know about re-embedding: the tenant's backfill state for a model. */
@Injectable()
export class EmbeddingBackfills {
  constructor(private readonly backfills: EmbeddingBackfillsRepository) {}

  /** The backfill of `model` in the current tenant; null when none was recorded. Call inside a tenant transaction. */
  state(model: string): Promise<BackfillState | null> {
    return this.backfills.get(model);
  }
}
