import { type DatabaseSync } from './sqlite';
import { inTransaction } from './store-database';

/** A memory as the server answers it (`memory_get`, REST `MemoryDto`); the cache keeps the whole view. */
export interface MemoryView {
  readonly id: string;
  readonly content: string;
  readonly category: string;
  readonly tags: readonly string[];
  readonly keywords: readonly string[];
  readonly version: number;
  readonly importance?: number;
  readonly pinned?: boolean;
  readonly archived?: boolean;
  readonly supersededBy?: string | null;
  readonly updatedAt?: string;
  readonly [field: string]: unknown;
}

/** Where a cached memory came from: what the user read or wrote ranks above what the feed brought. */
export type CacheOrigin = 'recall' | 'write' | 'feed';

export interface CachedMemory {
  readonly memory: MemoryView;
  /** When this state was fetched from the server (ms since the epoch). */
  readonly cachedAt: number;
}

export interface CacheSearchResult extends CachedMemory {
  /** FTS5 relevance, higher is better (the negated bm25 of the row). */
  readonly score: number;
}

export interface CacheSearchFilters {
  readonly categories?: readonly string[];
  readonly tags?: readonly string[];
  readonly pinned?: boolean;
  readonly includeArchived?: boolean;
  readonly includeSuperseded?: boolean;
}

/** Memories kept per identity and project before the least recently used go. */
export const DEFAULT_MEMORIES_PER_PROJECT = 2_000;
/**
 * What the change feed brings in counts as used this long ago, so it fills the room recalls and
 * writes leave and goes first: the cache holds what this user touched, then what changed lately.
 */
const FEED_AGE_MS = 30 * 24 * 3600 * 1000;
/** bm25 column weights: content, keywords, tags, category (as the server ranks them: A, B, C, D). */
const BM25_WEIGHTS = '1.0, 0.6, 0.4, 0.2';
const MAX_QUERY_TERMS = 32;

interface SearchRow {
  body: string;
  cached_at: number;
  rank: number;
}

/**
 * The recently recalled, written and changed memories of one identity, per project, with an
 * FTS5 index over content, keywords, tags and category (porter stemming, like the server's
 * English text search) for answering `memory_recall` when the server is away.
 */
export class MemoryCacheRepository {
  constructor(
    private readonly db: DatabaseSync,
    private readonly identityId: number,
    private readonly perProject = DEFAULT_MEMORIES_PER_PROJECT,
  ) {}

  /**
   * Keeps these memories under `project`. A cached version newer than the one given is kept
   * (an older recall answer never undoes a feed update); then the project is cut to its bound.
   */
  put(project: string, memories: readonly MemoryView[], origin: CacheOrigin, now = Date.now()): void {
    if (memories.length === 0) return;
    const usedAt = origin === 'feed' ? now - FEED_AGE_MS : now;
    const upsert = this.db.prepare(
      `INSERT INTO memories
         (identity_id, project, id, content, keywords, tags, category, version, body, origin, cached_at, used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (identity_id, project, id) DO UPDATE SET
         content = excluded.content, keywords = excluded.keywords, tags = excluded.tags,
         category = excluded.category, version = excluded.version, body = excluded.body,
         cached_at = excluded.cached_at,
         origin = CASE WHEN excluded.origin = 'feed' THEN memories.origin ELSE excluded.origin END,
         used_at = max(memories.used_at, excluded.used_at)
       WHERE excluded.version >= memories.version`,
    );
    inTransaction(this.db, () => {
      for (const memory of memories) {
        upsert.run(
          this.identityId,
          project,
          memory.id,
          memory.content,
          memory.keywords.join(' '),
          memory.tags.join(' '),
          memory.category,
          memory.version,
          JSON.stringify(memory),
          origin,
          now,
          usedAt,
        );
      }
      this.db
        .prepare(
          `DELETE FROM memories WHERE rowid IN (
             SELECT rowid FROM memories WHERE identity_id = ? AND project = ?
              ORDER BY used_at DESC, rowid DESC LIMIT -1 OFFSET ?)`,
        )
        .run(this.identityId, project, this.perProject);
    });
  }

  /** Drops every cached copy of a memory (deleted, or no longer shared with this identity). */
  remove(id: string): void {
    this.db.prepare('DELETE FROM memories WHERE identity_id = ? AND id = ?').run(this.identityId, id);
  }

  get(project: string, id: string): CachedMemory | undefined {
    const row = this.db
      .prepare('SELECT body, cached_at FROM memories WHERE identity_id = ? AND project = ? AND id = ?')
      .get(this.identityId, project, id) as { body: string; cached_at: number } | undefined;
    return row && { memory: JSON.parse(row.body) as MemoryView, cachedAt: Number(row.cached_at) };
  }

  count(project: string): number {
    const row = this.db
      .prepare('SELECT count(*) AS n FROM memories WHERE identity_id = ? AND project = ?')
      .get(this.identityId, project) as { n: number };
    return Number(row.n);
  }

  /**
   * The cached memories of `project` that match any word of `query`, best first (bm25 over the
   * weighted columns). Archived and superseded ones are left out unless asked for, as the
   * server does. The rows returned count as used (they stay longest).
   */
  search(project: string, query: string, limit: number, filters: CacheSearchFilters = {}): CacheSearchResult[] {
    const match = matchExpression(query);
    if (!match) return [];
    const rows = this.db
      .prepare(
        `SELECT m.rowid AS rowid, m.body AS body, m.cached_at AS cached_at, bm25(memories_fts, ${BM25_WEIGHTS}) AS rank
           FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
          WHERE memories_fts MATCH ? AND m.identity_id = ? AND m.project = ?
          ORDER BY rank LIMIT ?`,
      )
      .all(match, this.identityId, project, Math.min(500, limit * 5)) as unknown as (SearchRow & { rowid: number })[];
    const results: (CacheSearchResult & { rowid: number })[] = [];
    for (const row of rows) {
      const memory = JSON.parse(row.body) as MemoryView;
      if (!passes(memory, filters)) continue;
      results.push({ memory, cachedAt: Number(row.cached_at), score: -Number(row.rank), rowid: Number(row.rowid) });
      if (results.length === limit) break;
    }
    if (results.length > 0) {
      const touch = this.db.prepare('UPDATE memories SET used_at = ? WHERE rowid = ?');
      const now = Date.now();
      inTransaction(this.db, () => results.forEach((result) => touch.run(now, result.rowid)));
    }
    return results.map(({ rowid: _rowid, ...result }) => result);
  }
}

/**
 * An FTS5 query from free text: every word as a quoted term, any of them may match (a long
 * question must not need all its words, as on the server). Quoting keeps FTS5 syntax in the
 * user's text (AND, NEAR, `"`, `*`, column filters) from ever being parsed as such.
 */
export function matchExpression(query: string): string | undefined {
  const words = query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const terms = [...new Set(words)].slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0) return undefined;
  return terms.map((term) => `"${term}"`).join(' OR ');
}

function passes(memory: MemoryView, filters: CacheSearchFilters): boolean {
  if (memory.archived && !filters.includeArchived) return false;
  if (memory.supersededBy && !filters.includeSuperseded) return false;
  if (filters.pinned !== undefined && Boolean(memory.pinned) !== filters.pinned) return false;
  if (filters.categories?.length && !filters.categories.includes(memory.category)) return false;
  if (filters.tags?.length && !filters.tags.every((tag) => memory.tags.includes(tag))) return false;
  return true;
}
