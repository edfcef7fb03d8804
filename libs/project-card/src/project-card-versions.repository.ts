import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { EMPTY_CARD_CONTENT, type ProjectCardContent } from './contract/project-card.types';

/** One stored version of a project's card, as the table holds it. */
export interface StoredCardVersion {
  readonly projectId: string;
  readonly version: number;
  /** As stored: jsonb, keys in its own order (contentOf puts them back in section order). */
  readonly content: Record<string, unknown>;
  readonly edited: string[];
  readonly derivedFrom: { branch: string; commit: string | null; at: string } | null;
  readonly authorUserId: string | null;
  readonly authorAgentId: string | null;
  readonly note: string | null;
  readonly createdAt: Date;
}

export interface NewCardVersion {
  readonly projectId: string;
  readonly version: number;
  readonly content: ProjectCardContent;
  readonly edited: readonly string[];
  readonly derivedFrom: { branch: string; commit: string | null; at: string } | null;
  readonly author: { readonly userId: string | null; readonly agentId: string | null } | null;
  readonly note: string | null;
}

const COLUMNS = `v.project_id AS "projectId", v.version, v.edited, v.derived_from AS "derivedFrom",
  v.author_user_id AS "authorUserId", v.author_agent_id AS "authorAgentId", v.note, v.created_at AS "createdAt"`;

const EXAMPLE_VERSION: NewCardVersion = {
  projectId: EX.projectId,
  version: 1,
  content: { ...EMPTY_CARD_CONTENT, stack: ['TypeScript (612 files)'], notes: 'Deploys go through Helm.' },
  edited: ['notes'],
  derivedFrom: { branch: 'main', commit: '0123456789abcdef0123456789abcdef01234567', at: EX.date.toISOString() },
  author: { userId: EX.userId, agentId: EX.agentId },
  note: 'the deploy gotcha',
};

/**
 * The versions of the current tenant's project cards: rows are only ever added (every version
 * is kept), and the newest is the card. Every call runs inside a tenant transaction.
 */
@Injectable()
export class ProjectCardVersionsRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * Serialises the writers of one project's card until the transaction ends, so each reads the
   * true newest version and two writes cannot take the same number. A transaction-level advisory
   * lock on the project: it works before the first version exists, and readers never wait.
   */
  @SqlSnapshot({ params: [EX.projectId] })
  async lockCard(projectId: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `cairn.project_card_versions:${projectId}`,
    ]);
  }

  @SqlSnapshot({ params: [EX.projectId] })
  async newest(projectId: string): Promise<StoredCardVersion | undefined> {
    const rows = await this.db.query<StoredCardVersion>(
      `SELECT ${COLUMNS}, v.content FROM project_card_versions v
       WHERE v.project_id = $1 ORDER BY v.version DESC LIMIT 1`,
      [projectId],
    );
    return rows[0];
  }

  @SqlSnapshot({ params: [EX.projectId, 1] })
  async byVersion(projectId: string, version: number): Promise<StoredCardVersion | undefined> {
    const rows = await this.db.query<StoredCardVersion>(
      `SELECT ${COLUMNS}, v.content FROM project_card_versions v WHERE v.project_id = $1 AND v.version = $2`,
      [projectId, version],
    );
    return rows[0];
  }

  /** Versions older than `before` (all when null), newest first, without their content. */
  @SqlSnapshot(
    { name: 'first page', params: [EX.projectId, null, 21] },
    { name: 'older', params: [EX.projectId, 5, 21] },
  )
  async page(projectId: string, before: number | null, limit: number): Promise<Omit<StoredCardVersion, 'content'>[]> {
    return this.db.query<Omit<StoredCardVersion, 'content'>>(
      `SELECT ${COLUMNS} FROM project_card_versions v
       WHERE v.project_id = $1 AND ($2::int IS NULL OR v.version < $2::int)
       ORDER BY v.version DESC LIMIT $3`,
      [projectId, before, limit],
    );
  }

  @SqlSnapshot({ params: [EXAMPLE_VERSION] })
  async insert(row: NewCardVersion): Promise<StoredCardVersion> {
    const rows = await this.db.query<StoredCardVersion>(
      `INSERT INTO project_card_versions AS v (project_id, version, content, edited, derived_from,
         author_user_id, author_agent_id, note)
       VALUES ($1, $2, $3::jsonb, $4::text[], $5::jsonb, $6, $7, $8)
       RETURNING ${COLUMNS}, v.content`,
      [
        row.projectId,
        row.version,
        JSON.stringify(row.content),
        row.edited,
        row.derivedFrom === null ? null : JSON.stringify(row.derivedFrom),
        row.author?.userId ?? null,
        row.author?.agentId ?? null,
        row.note,
      ],
    );
    return rows[0];
  }
}
