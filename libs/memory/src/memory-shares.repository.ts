import { randomUUID } from 'node:crypto';
import { SNAPSHOT_EXAMPLE as EX, SqlParams, SqlSnapshot } from '@cairn/db';
import { Injectable } from '@nestjs/common';
import { ProjectResolver } from '@cairn/projects';
import { TenantDb } from '@cairn/tenancy';
import {
  type Grantee,
  type GrantPosition,
  type MemoryShare,
  type Party,
  type SharedMemory,
  type ShareGrant,
  type SharePermission,
  type ShareRule,
} from './contract/memory-sharing.types';
import { type MemoryRow, toMemories } from './memory-row.sql';
import { grantsSql, sharedWithSql } from './memory-share-listings.sql';
import { GRANT_NOTICE_INSERT, ruleNoticesSql } from './memory-shares.sql';
import { EXAMPLE_READER } from './memory.sql-examples';

interface GrantRow {
  kind: 'share' | 'rule';
  id: string;
  memory_id: string | null;
  tag: string | null;
  project_id: string | null;
  grantee_user_id: string | null;
  grantee_agent_id: string | null;
  permission: SharePermission;
  by_user_id: string | null;
  by_agent_id: string | null;
  by_token_id: string | null;
  created_at: Date;
  position_at?: string;
}

type SharedRow = MemoryRow & {
  grant_permission: SharePermission;
  grant_via: 'share' | 'rule';
  grant_id: string;
  by_user_id: string | null;
  by_agent_id: string | null;
  by_token_id: string | null;
  granted_at: Date;
};

const SHARE_SELECT = `SELECT 'share' AS kind, s.id, s.memory_id, NULL::text AS tag, m.project_id,
    s.grantee_user_id, s.grantee_agent_id, s.permission, s.granted_by_user_id AS by_user_id,
    s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at
  FROM memory_shares s JOIN memories m ON m.id = s.memory_id`;

const RULE_SELECT = `SELECT 'rule' AS kind, r.id, NULL::uuid AS memory_id, r.tag, r.project_id,
    r.grantee_user_id, r.grantee_agent_id, r.permission, r.owner_user_id AS by_user_id,
    r.owner_agent_id AS by_agent_id, r.owner_token_id AS by_token_id, r.created_at
  FROM memory_share_rules r`;

/** Shares and tag rules of the current tenant; every call runs inside a tenant transaction. */
@Injectable()
export class MemorySharesRepository {
  constructor(
    private readonly db: TenantDb,
    private readonly projects: ProjectResolver,
  ) {}

  /** Shares the memory, or changes the permission (and who granted it) of the existing share. */
  @SqlSnapshot(
    { name: 'a new agent grantee', params: [EX.memoryId, { agentId: 'codex:carol' }, 'write', EXAMPLE_READER] },
    { name: 'a new user grantee', params: [EX.memoryId, { userId: EX.newUserId }, 'read', EXAMPLE_READER] },
  )
  async upsertShare(
    memoryId: string,
    grantee: Grantee,
    permission: SharePermission,
    by: Party,
  ): Promise<{ share: MemoryShare; created: boolean }> {
    const column = grantee.userId !== undefined ? 'grantee_user_id' : 'grantee_agent_id';
    const rows = await this.db.query<{ id: string; created: boolean }>(
      `INSERT INTO memory_shares (id, memory_id, grantee_user_id, grantee_agent_id, permission,
         granted_by_user_id, granted_by_agent_id, granted_by_token_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (memory_id, ${column}) WHERE ${column} IS NOT NULL DO UPDATE SET permission = EXCLUDED.permission,
         granted_by_user_id = EXCLUDED.granted_by_user_id, granted_by_agent_id = EXCLUDED.granted_by_agent_id,
         granted_by_token_id = EXCLUDED.granted_by_token_id
       RETURNING id, (xmax = 0) AS created`,
      [
        randomUUID(),
        memoryId,
        grantee.userId ?? null,
        grantee.agentId ?? null,
        permission,
        by.userId,
        by.agentId,
        by.tokenId,
      ],
    );
    // A new grantee sees the memory from now on: their change feed hears of it.
    if (rows[0].created) {
      await this.db.query(
        `${GRANT_NOTICE_INSERT} SELECT memory_id, grantee_user_id, grantee_agent_id FROM memory_shares WHERE id = $1`,
        [rows[0].id],
      );
    }
    const share = (await this.findShare(rows[0].id)) as MemoryShare;
    return { share, created: rows[0].created };
  }

  @SqlSnapshot({ params: [EX.shareId] })
  async findShare(id: string): Promise<MemoryShare | null> {
    const rows = await this.db.query<GrantRow>(`${SHARE_SELECT} WHERE s.id = $1`, [id]);
    return ((await this.toGrants(rows))[0] as MemoryShare | undefined) ?? null;
  }

  /** Removes the share; the grantee's change feed hears of it (a tombstone unless still given it). */
  @SqlSnapshot({ params: [EX.shareId] })
  async deleteShare(id: string): Promise<void> {
    await this.db.query(
      `WITH gone AS (DELETE FROM memory_shares WHERE id = $1 RETURNING memory_id, grantee_user_id, grantee_agent_id)
       ${GRANT_NOTICE_INSERT} SELECT memory_id, grantee_user_id, grantee_agent_id FROM gone`,
      [id],
    );
  }

  /**
   * Makes the rule, or changes the permission of the same owner's rule for the same tag,
   * project and grantee (serialised on that key, so two concurrent calls make one rule).
   */
  @SqlSnapshot(
    {
      name: 'a new rule',
      params: [
        {
          projectId: EX.projectId,
          tag: 'ci',
          grantee: { agentId: EX.otherAgentId },
          permission: 'read',
          owner: EXAMPLE_READER,
        },
      ],
    },
    {
      name: 'the rule exists: its permission changes',
      params: [
        {
          projectId: EX.projectId,
          tag: 'deploy',
          grantee: { agentId: EX.otherAgentId },
          permission: 'write',
          owner: EXAMPLE_READER,
        },
      ],
    },
  )
  async upsertRule(rule: {
    projectId: string | null;
    tag: string;
    grantee: Grantee;
    permission: SharePermission;
    owner: Party;
  }): Promise<{ rule: ShareRule; created: boolean }> {
    const values = [
      rule.projectId,
      rule.tag,
      rule.grantee.userId ?? null,
      rule.grantee.agentId ?? null,
      rule.owner.userId,
      rule.owner.agentId,
      rule.owner.tokenId,
    ];
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('memory_share_rules'), hashtext($1))`, [
      JSON.stringify(values),
    ]);
    // In a CTE: TypeORM answers a bare UPDATE … RETURNING with [rows, count].
    const existing = await this.db.query<{ id: string }>(
      `WITH changed AS (UPDATE memory_share_rules SET permission = $8
       WHERE project_id IS NOT DISTINCT FROM $1::uuid AND tag = $2 AND grantee_user_id IS NOT DISTINCT FROM $3::uuid
         AND grantee_agent_id IS NOT DISTINCT FROM $4::text AND owner_user_id IS NOT DISTINCT FROM $5::uuid
         AND owner_agent_id IS NOT DISTINCT FROM $6::text AND owner_token_id IS NOT DISTINCT FROM $7::uuid
       RETURNING id)
       SELECT id FROM changed`,
      [...values, rule.permission],
    );
    let id = existing[0]?.id;
    if (!id) {
      id = randomUUID();
      await this.db.query(
        `INSERT INTO memory_share_rules (id, project_id, tag, grantee_user_id, grantee_agent_id, owner_user_id,
           owner_agent_id, owner_token_id, permission)
         VALUES ($9, $1, $2, $3, $4, $5, $6, $7, $8)`,
        [...values, rule.permission, id],
      );
      await this.db.query(ruleNoticesSql('$1::uuid'), [id]);
    }
    return { rule: (await this.findRule(id)) as ShareRule, created: existing.length === 0 };
  }

  @SqlSnapshot({ params: [EX.ruleId] })
  async findRule(id: string): Promise<ShareRule | null> {
    const rows = await this.db.query<GrantRow>(`${RULE_SELECT} WHERE r.id = $1`, [id]);
    return ((await this.toGrants(rows))[0] as ShareRule | undefined) ?? null;
  }

  /** Removes the rule; the grantee's change feed hears of every memory it covered. */
  @SqlSnapshot({ params: [EX.ruleId] })
  async deleteRule(id: string): Promise<void> {
    await this.db.query(ruleNoticesSql('$1::uuid'), [id]);
    await this.db.query('DELETE FROM memory_share_rules WHERE id = $1', [id]);
  }

  /** See sharedWithSql. */
  @SqlSnapshot(
    {
      name: 'first page',
      params: [{ userId: EX.userId, agentId: EX.otherAgentId, tokenId: EX.tokenId }, EX.projectId, 21],
    },
    {
      name: 'after a memory',
      params: [{ userId: EX.userId, agentId: EX.otherAgentId, tokenId: EX.tokenId }, EX.projectId, 21, EX.memoryId],
    },
  )
  async sharedWith(viewer: Party, projectId: string, limit: number, afterId?: string): Promise<SharedMemory[]> {
    const params = new SqlParams();
    const sql = sharedWithSql(viewer, projectId, limit, afterId, params);
    if (sql === null) return [];
    const rows = await this.db.query<SharedRow>(sql, params.values);
    const memories = await toMemories(rows, this.projects);
    return rows.map((row, index) => ({
      memory: memories[index],
      permission: row.grant_permission,
      via: row.grant_via,
      grantId: row.grant_id,
      sharedBy: { userId: row.by_user_id, agentId: row.by_agent_id, tokenId: row.by_token_id },
      sharedAt: row.granted_at,
    }));
  }

  /** See grantsSql; each grant with its keyset position. */
  @SqlSnapshot(
    { name: "the caller's, of one memory", params: [EXAMPLE_READER, EX.projectId, EX.memoryId, 51] },
    {
      name: "every one (an admin's), after a position",
      params: [null, EX.projectId, undefined, 51, { at: '2026-01-02T03:04:05.678901Z', id: EX.shareId }],
    },
  )
  async grants(
    who: Party | null,
    projectId: string,
    memoryId: string | undefined,
    limit: number,
    after?: GrantPosition,
  ): Promise<{ grant: ShareGrant; position: GrantPosition }[]> {
    const params = new SqlParams();
    const rows = await this.db.query<GrantRow>(
      grantsSql(who, projectId, memoryId, limit, after, params),
      params.values,
    );
    const grants = await this.toGrants(rows);
    return rows.map((row, index) => ({
      grant: grants[index],
      position: { at: row.position_at as string, id: row.id },
    }));
  }

  /** Grants with their project's slug (@cairn/projects'). */
  private async toGrants(rows: readonly GrantRow[]): Promise<ShareGrant[]> {
    const slugs = await this.projects.slugsOf(rows.map((row) => row.project_id));
    return rows.map((row) => toGrant(row, row.project_id === null ? null : (slugs.get(row.project_id) ?? null)));
  }
}

function toGrant(row: GrantRow, project: string | null): ShareGrant {
  const common = {
    id: row.id,
    project,
    grantee: { userId: row.grantee_user_id, agentId: row.grantee_agent_id },
    permission: row.permission,
    createdAt: row.created_at,
  };
  const party = { userId: row.by_user_id, agentId: row.by_agent_id, tokenId: row.by_token_id };
  if (row.kind === 'share') return { kind: 'share', ...common, memoryId: row.memory_id as string, grantedBy: party };
  return { kind: 'rule', ...common, tag: row.tag as string, projectId: row.project_id, owner: party };
}
