import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type SymbolHit } from './contract/code-index.types';

export interface NewSymbol {
  readonly name: string;
  readonly kind: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly signature: string;
  readonly container: string | null;
  readonly exported: boolean;
}

export interface ReferenceHit {
  readonly path: string;
  readonly line: number;
  readonly text: string;
  readonly hash: string;
}

export interface SymbolQuery {
  readonly name: string;
  readonly kinds: readonly string[] | null;
  /** Also names that merely resemble it (trigram similarity) or contain it. */
  readonly fuzzy: boolean;
  readonly limit: number;
}

const HIT_COLUMNS = `s.name, s.kind, f.path, s.start_line AS "startLine", s.end_line AS "endLine", s.signature,
  s.container, s.exported, f.content_hash AS hash, f.indexed_commit AS commit`;

/** Symbols and references of indexed files; every call runs inside a tenant transaction. */
@Injectable()
export class CodeSymbolsRepository {
  constructor(private readonly db: TenantDb) {}

  /** A new file's symbols and the identifiers it references, in two statements. */
  @SqlSnapshot({
    params: [
      EX.fileId,
      EX.branchId,
      [
        {
          name: 'deploy',
          kind: 'function',
          startLine: 1,
          endLine: 3,
          signature: 'export function deploy()',
          container: null,
          exported: true,
        },
      ],
      [{ name: 'helm', line: 2 }],
    ],
  })
  async insert(
    fileId: string,
    branchId: string,
    symbols: readonly NewSymbol[],
    references: readonly { name: string; line: number }[],
  ): Promise<void> {
    if (symbols.length > 0) {
      await this.db.query(
        `INSERT INTO code_symbols (id, file_id, branch_id, name, kind, start_line, end_line, signature, container, exported)
         SELECT gen_random_uuid(), $1, $2, * FROM unnest($3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[], $9::bool[])`,
        [
          fileId,
          branchId,
          symbols.map((symbol) => symbol.name),
          symbols.map((symbol) => symbol.kind),
          symbols.map((symbol) => symbol.startLine),
          symbols.map((symbol) => symbol.endLine),
          symbols.map((symbol) => symbol.signature),
          symbols.map((symbol) => symbol.container),
          symbols.map((symbol) => symbol.exported),
        ],
      );
    }
    if (references.length > 0) {
      await this.db.query(
        `INSERT INTO code_references (file_id, branch_id, name, line)
         SELECT $1, $2, * FROM unnest($3::text[], $4::int[])`,
        [fileId, branchId, references.map((ref) => ref.name), references.map((ref) => ref.line)],
      );
    }
  }

  /**
   * Definitions by name: exact (case-insensitive) matches score 1; with `fuzzy`, names containing
   * the query or resembling it (pg_trgm similarity) score below, best first. Exported symbols
   * and shorter names win ties: they are what a caller usually means.
   */
  @SqlSnapshot({
    params: [EX.branchId, { name: 'deploy', kinds: null, fuzzy: true, limit: 20 }],
  })
  find(branchId: string, query: SymbolQuery): Promise<SymbolHit[]> {
    const name = query.name.toLowerCase();
    return this.db.query<SymbolHit>(
      `SELECT * FROM (
         SELECT ${HIT_COLUMNS},
                (CASE WHEN lower(s.name) = $2 THEN 1.0
                     WHEN $4 AND strpos(lower(s.name), $2) > 0 THEN 0.5 + 0.4 * length($2)::float / length(s.name)
                     ELSE 0.8 * public.similarity(lower(s.name), $2) END)::float8 AS score
         FROM code_symbols s JOIN code_files f ON f.id = s.file_id
         WHERE s.branch_id = $1
           AND ($3::text[] IS NULL OR s.kind = ANY($3::text[]))
           AND (lower(s.name) = $2 OR ($4 AND (strpos(lower(s.name), $2) > 0 OR lower(s.name) OPERATOR(public.%) $2)))
       ) hit
       ORDER BY score DESC, exported DESC, length(name), path COLLATE "C", "startLine"
       LIMIT $5`,
      [branchId, name, query.kinds, query.fuzzy, query.limit],
    );
  }

  /** Where `name` is referenced (as tree-sitter saw an identifier), with the line's text. */
  @SqlSnapshot({ params: [EX.branchId, 'deploy', 50] })
  references(branchId: string, name: string, limit: number): Promise<ReferenceHit[]> {
    return this.db.query<ReferenceHit>(
      `SELECT f.path, r.line, f.content_hash AS hash,
              left(btrim(split_part(f.content, E'\\n', r.line)), 200) AS text
       FROM code_references r JOIN code_files f ON f.id = r.file_id
       WHERE r.branch_id = $1 AND r.name = $2
       ORDER BY f.path COLLATE "C", r.line LIMIT $3`,
      [branchId, name, limit],
    );
  }

  /** The symbols a file defines, in line order (a file's outline). */
  @SqlSnapshot({ params: [EX.branchId, 'src/deploy.ts'] })
  ofFile(branchId: string, path: string): Promise<SymbolHit[]> {
    return this.db.query<SymbolHit>(
      `SELECT ${HIT_COLUMNS}, 1::float8 AS score FROM code_symbols s JOIN code_files f ON f.id = s.file_id
       WHERE f.branch_id = $1 AND f.path = $2 ORDER BY s.start_line`,
      [branchId, path],
    );
  }
}
