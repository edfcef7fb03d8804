import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';

export interface CodeBranch {
  readonly id: string;
  readonly projectId: string;
  readonly name: string;
  readonly lastCommit: string | null;
  readonly indexedAt: Date | null;
}

const COLUMNS = `id, project_id AS "projectId", name, last_commit AS "lastCommit", indexed_at AS "indexedAt"`;

/** The indexed branches of the current tenant's projects; every call runs inside a tenant transaction. */
@Injectable()
export class CodeBranchesRepository {
  constructor(private readonly db: TenantDb) {}

  /** The branch, created on first use, locked until the transaction ends: uploads to one branch take turns. */
  @SqlSnapshot({ params: [EX.newId, EX.projectId, 'main'] })
  async lockOrCreate(newId: string, projectId: string, name: string): Promise<CodeBranch> {
    await this.db.query(
      `INSERT INTO code_branches (id, project_id, name) VALUES ($1, $2, $3) ON CONFLICT (project_id, name) DO NOTHING`,
      [newId, projectId, name],
    );
    const rows = await this.db.query<CodeBranch>(
      `SELECT ${COLUMNS} FROM code_branches WHERE project_id = $1 AND name = $2 FOR UPDATE`,
      [projectId, name],
    );
    return rows[0];
  }

  /** The branch if it was ever indexed; with `lock`, held until the transaction ends as an upload holds it. */
  @SqlSnapshot(
    { name: 'read', params: [EX.projectId, 'main'] },
    { name: 'locked', params: [EX.projectId, 'main', { lock: true }] },
  )
  async find(projectId: string, name: string, options: { lock?: boolean } = {}): Promise<CodeBranch | null> {
    const rows = await this.db.query<CodeBranch>(
      `SELECT ${COLUMNS} FROM code_branches WHERE project_id = $1 AND name = $2${options.lock ? ' FOR UPDATE' : ''}`,
      [projectId, name],
    );
    return rows[0] ?? null;
  }

  /** The branch a question about the project's code reads when it names none: the one indexed last. */
  @SqlSnapshot({ params: [EX.projectId] })
  async newest(projectId: string): Promise<CodeBranch | null> {
    const rows = await this.db.query<CodeBranch>(
      `SELECT ${COLUMNS} FROM code_branches WHERE project_id = $1
       ORDER BY indexed_at DESC NULLS LAST, created_at DESC LIMIT 1`,
      [projectId],
    );
    return rows[0] ?? null;
  }

  @SqlSnapshot({ params: [EX.branchId, 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'] })
  async recordRun(branchId: string, commit: string | null): Promise<void> {
    await this.db.query(
      `UPDATE code_branches SET indexed_at = now(), last_commit = coalesce($2, last_commit) WHERE id = $1`,
      [branchId, commit],
    );
  }

  /** Files and symbols indexed on the branch. */
  @SqlSnapshot({ params: [EX.branchId] })
  async counts(branchId: string): Promise<{ files: number; symbols: number }> {
    const rows = await this.db.query<{ files: number; symbols: number }>(
      `SELECT (SELECT count(*)::int FROM code_files WHERE branch_id = $1) AS files,
              (SELECT count(*)::int FROM code_symbols WHERE branch_id = $1) AS symbols`,
      [branchId],
    );
    return rows[0];
  }
}
