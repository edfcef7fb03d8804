import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type ManifestEntry } from './contract/code-index.types';

export interface NewCodeFile {
  readonly id: string;
  readonly branchId: string;
  readonly projectId: string;
  readonly path: string;
  readonly contentHash: string;
  readonly size: number;
  readonly lineCount: number;
  readonly language: string | null;
  readonly content: string;
  readonly commit: string | null;
  readonly parseError: string | null;
}

/** A file as the project card and summaries read it. */
export interface CodeFileOutline {
  readonly path: string;
  readonly language: string | null;
  readonly size: number;
  readonly lineCount: number;
  readonly symbols: number;
  readonly exported: number;
  readonly referencedBy: number;
}

export interface CodeFileText {
  readonly path: string;
  readonly content: string;
  readonly contentHash: string;
  readonly commit: string | null;
}

/** The files of indexed branches (the manifest); every call runs inside a tenant transaction. */
@Injectable()
export class CodeFilesRepository {
  constructor(private readonly db: TenantDb) {}

  /** A page of the manifest in path order (byte order, as the client sorts too). */
  @SqlSnapshot({ params: [EX.branchId, null, 5000] })
  manifest(branchId: string, after: string | null, limit: number): Promise<ManifestEntry[]> {
    return this.db.query<ManifestEntry>(
      `SELECT path, content_hash AS hash, size FROM code_files
       WHERE branch_id = $1 AND ($2::text IS NULL OR path COLLATE "C" > $2::text COLLATE "C")
       ORDER BY path COLLATE "C" LIMIT $3`,
      [branchId, after, limit],
    );
  }

  /** The stored hash of each of `paths` that is indexed. */
  @SqlSnapshot({ params: [EX.branchId, ['src/deploy.ts']] })
  async hashesOf(branchId: string, paths: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.db.query<{ path: string; hash: string }>(
      `SELECT path, content_hash AS hash FROM code_files WHERE branch_id = $1 AND path = ANY($2::text[])`,
      [branchId, paths],
    );
    return new Map(rows.map((row) => [row.path, row.hash]));
  }

  /** Replaces the file at its path: its symbols, references and passages go with the old row. */
  @SqlSnapshot({
    params: [
      {
        id: EX.newId,
        branchId: EX.branchId,
        projectId: EX.projectId,
        path: 'src/deploy.ts',
        contentHash: EX.contentHash,
        size: 42,
        lineCount: 3,
        language: 'typescript',
        content: 'export function deploy() {}',
        commit: null,
        parseError: null,
      },
    ],
  })
  async replace(file: NewCodeFile): Promise<void> {
    await this.db.query(`DELETE FROM code_files WHERE branch_id = $1 AND path = $2`, [file.branchId, file.path]);
    await this.db.query(
      `INSERT INTO code_files (id, branch_id, project_id, path, content_hash, size, line_count, language, content,
                               indexed_commit, parse_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        file.id,
        file.branchId,
        file.projectId,
        file.path,
        file.contentHash,
        file.size,
        file.lineCount,
        file.language,
        file.content,
        file.commit,
        file.parseError,
      ],
    );
  }

  @SqlSnapshot({ params: [EX.branchId, ['src/deploy.ts']] })
  async remove(branchId: string, paths: readonly string[]): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `WITH removed AS (DELETE FROM code_files WHERE branch_id = $1 AND path = ANY($2::text[]) RETURNING 1)
       SELECT count(*)::int AS n FROM removed`,
      [branchId, paths],
    );
    return rows[0]?.n ?? 0;
  }

  /** Every file of the branch with what it defines and how often other files name its exports. */
  @SqlSnapshot({ params: [EX.branchId, 20_000] })
  outline(branchId: string, limit: number): Promise<CodeFileOutline[]> {
    return this.db.query<CodeFileOutline>(
      `SELECT f.path, f.language, f.size, f.line_count AS "lineCount",
              coalesce(s.symbols, 0) AS symbols, coalesce(s.exported, 0) AS exported,
              coalesce(r.files, 0) AS "referencedBy"
       FROM code_files f
       LEFT JOIN LATERAL (
         SELECT count(*)::int AS symbols, count(*) FILTER (WHERE exported)::int AS exported
         FROM code_symbols WHERE file_id = f.id) s ON true
       LEFT JOIN LATERAL (
         SELECT count(DISTINCT ref.file_id)::int AS files FROM code_references ref
         WHERE ref.branch_id = f.branch_id AND ref.file_id <> f.id
           AND ref.name IN (SELECT name FROM code_symbols WHERE file_id = f.id AND exported)) r ON true
       WHERE f.branch_id = $1
       ORDER BY f.path COLLATE "C" LIMIT $2`,
      [branchId, limit],
    );
  }

  /** The text of the named files that are indexed (the card reads manifests such as package.json). */
  @SqlSnapshot({ params: [EX.branchId, ['src/deploy.ts']] })
  texts(branchId: string, paths: readonly string[]): Promise<CodeFileText[]> {
    return this.db.query<CodeFileText>(
      `SELECT path, content, content_hash AS "contentHash", indexed_commit AS commit
       FROM code_files WHERE branch_id = $1 AND path = ANY($2::text[])`,
      [branchId, paths],
    );
  }
}
