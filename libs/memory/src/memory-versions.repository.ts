import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type Memory } from './contract/memory.types';
import { EXAMPLE_MEMORY } from './memory.sql-examples';

export interface MemoryVersion {
  readonly version: number;
  /** The memory as it was at that version. */
  readonly snapshot: Record<string, unknown>;
  readonly changedBy: { readonly userId: string | null; readonly agentId: string | null };
  readonly reason: string | null;
  readonly createdAt: Date;
}

interface VersionRow {
  version: number;
  snapshot: Record<string, unknown>;
  changed_by_user_id: string | null;
  changed_by_agent_id: string | null;
  change_reason: string | null;
  created_at: Date;
}

/** Snapshots of what a memory was before each change: who changed it, when and why. */
@Injectable()
export class MemoryVersionsRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * `extra` adds what the snapshot cannot read from `before` (a promotion passes the scope the
   * memory had, read from its row).
   */
  @SqlSnapshot({
    params: [EXAMPLE_MEMORY, { userId: EX.userId, agentId: EX.agentId }, 'the branch changed', { scope: 'private' }],
  })
  async record(
    before: Memory,
    changedBy: { userId: string | null; agentId: string | null },
    reason: string | null,
    extra: { readonly scope?: string } = {},
  ): Promise<void> {
    const snapshot = {
      content: before.content,
      category: before.category,
      tags: before.tags,
      keywords: before.keywords,
      importance: before.importance,
      confidence: before.confidence,
      source: before.source,
      pinned: before.pinned,
      sensitive: before.sensitive,
      supersededBy: before.supersededBy,
      occurredAt: before.occurredAt.toISOString(),
      updatedAt: before.updatedAt.toISOString(),
      ...extra,
    };
    await this.db.query(
      `INSERT INTO memory_versions (memory_id, version, snapshot, changed_by_user_id, changed_by_agent_id, change_reason)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (memory_id, version) DO NOTHING`,
      [before.id, before.version, JSON.stringify(snapshot), changedBy.userId, changedBy.agentId, reason],
    );
  }

  /**
   * When a memory's content becomes sealed, its earlier versions must not keep it in the clear:
   * their content becomes `placeholder` too (who changed what when, and the other fields, stay).
   */
  @SqlSnapshot({ params: [EX.memoryId, '[SECRET:sensitive:example]'] })
  async sealContent(memoryId: string, placeholder: string): Promise<void> {
    await this.db.query(
      `UPDATE memory_versions SET snapshot = jsonb_set(snapshot, '{content}', to_jsonb($2::text))
       WHERE memory_id = $1`,
      [memoryId, placeholder],
    );
  }

  @SqlSnapshot({ params: [EX.memoryId] })
  async history(memoryId: string): Promise<MemoryVersion[]> {
    const rows = await this.db.query<VersionRow>(
      `SELECT version, snapshot, changed_by_user_id, changed_by_agent_id, change_reason, created_at
       FROM memory_versions WHERE memory_id = $1 ORDER BY version DESC`,
      [memoryId],
    );
    return rows.map((row) => ({
      version: row.version,
      snapshot: row.snapshot,
      changedBy: { userId: row.changed_by_user_id, agentId: row.changed_by_agent_id },
      reason: row.change_reason,
      createdAt: row.created_at,
    }));
  }
}
