import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';

export interface BackfillState {
  readonly model: string;
  readonly status: 'running' | 'done';
  readonly embedded: number;
  readonly startedAt: Date;
  readonly completedAt: Date | null;
}

/** Which embedding models a tenant has been (or is being) re-embedded for. */
@Injectable()
export class EmbeddingBackfillsRepository {
  constructor(private readonly db: TenantDb) {}

  @SqlSnapshot({ params: [EX.modelId] })
  async get(model: string): Promise<BackfillState | null> {
    const [row] = await this.db.query<BackfillState>(
      `SELECT model, status, embedded, started_at AS "startedAt", completed_at AS "completedAt"
       FROM embedding_backfills WHERE model = $1`,
      [model],
    );
    return row ?? null;
  }

  /** Records the start of a backfill; true when this call started it. */
  @SqlSnapshot({ params: [EX.modelId, 768] })
  async start(model: string, dimensions: number): Promise<boolean> {
    const rows = await this.db.query<{ model: string }>(
      `INSERT INTO embedding_backfills (model, dimensions, status) VALUES ($1, $2, 'running')
       ON CONFLICT (model) DO NOTHING RETURNING model`,
      [model, dimensions],
    );
    return rows.length > 0;
  }

  @SqlSnapshot({ params: [EX.modelId, 100] })
  async progress(model: string, embedded: number): Promise<void> {
    await this.db.query(`UPDATE embedding_backfills SET embedded = embedded + $2 WHERE model = $1`, [model, embedded]);
  }

  @SqlSnapshot({ params: [EX.modelId] })
  async complete(model: string): Promise<void> {
    await this.db.query(
      `UPDATE embedding_backfills SET status = 'done', completed_at = now() WHERE model = $1 AND status = 'running'`,
      [model],
    );
  }
}
