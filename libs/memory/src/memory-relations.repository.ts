import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type MemoryRelation, type RelationType } from './contract/memory.types';

interface RelationRow {
  id: string;
  from_id: string;
  to_id: string;
  type: RelationType;
  note: string | null;
  created_by_user_id: string | null;
  created_by_agent_id: string | null;
  created_at: Date;
}

const toRelation = (row: RelationRow): MemoryRelation => ({
  id: row.id,
  fromId: row.from_id,
  toId: row.to_id,
  type: row.type,
  note: row.note,
  createdBy: { userId: row.created_by_user_id, agentId: row.created_by_agent_id },
  createdAt: row.created_at,
});

/** Typed links between memories; one row per (from, to, type). */
@Injectable()
export class MemoryRelationsRepository {
  constructor(private readonly db: TenantDb) {}

  /** Idempotent: linking twice returns the existing relation. */
  @SqlSnapshot({
    params: [
      EX.memoryId,
      EX.otherMemoryId,
      'contradicts',
      'they disagree on how staging deploys run',
      { userId: EX.userId, agentId: EX.agentId },
    ],
  })
  async link(
    fromId: string,
    toId: string,
    type: RelationType,
    note: string | null,
    by: { userId: string | null; agentId: string | null },
  ): Promise<MemoryRelation> {
    const rows = await this.db.query<RelationRow>(
      `WITH inserted AS (
         INSERT INTO memory_relations (id, from_id, to_id, type, note, created_by_user_id, created_by_agent_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (from_id, to_id, type) DO NOTHING RETURNING *
       )
       SELECT * FROM inserted
       UNION ALL SELECT * FROM memory_relations WHERE from_id = $2 AND to_id = $3 AND type = $4
       LIMIT 1`,
      [randomUUID(), fromId, toId, type, note, by.userId, by.agentId],
    );
    return toRelation(rows[0]);
  }

  /** Relations touching `memoryId` in either direction. */
  @SqlSnapshot({ params: [EX.memoryId, 'contradicts'] })
  async touching(memoryId: string, type?: RelationType): Promise<MemoryRelation[]> {
    const rows = await this.db.query<RelationRow>(
      `SELECT * FROM memory_relations WHERE (from_id = $1 OR to_id = $1) AND ($2::text IS NULL OR type = $2)
       ORDER BY created_at`,
      [memoryId, type ?? null],
    );
    return rows.map(toRelation);
  }

  @SqlSnapshot({ params: [[EX.memoryId, EX.otherMemoryId]] })
  async forMemories(ids: readonly string[]): Promise<MemoryRelation[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<RelationRow>(
      `SELECT * FROM memory_relations WHERE from_id = ANY($1::uuid[]) ORDER BY from_id, created_at`,
      [ids],
    );
    return rows.map(toRelation);
  }
}
