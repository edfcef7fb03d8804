import { type ProjectResolver } from '@cairn/projects';
import { type Memory, type MemoryCategory, type MemoryScopeLevel } from './contract/memory.types';

/**
 * Columns every memory read selects over alias `m`: never the tsvector or the vector itself.
 * The project's slug is @cairn/projects' to say (toMemories), not a join on its table.
 */
export const MEMORY_COLUMNS = `
  m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
  m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
  m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
  m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
  (m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded`;

export interface MemoryRow {
  id: string;
  project_id: string | null;
  scope: MemoryScopeLevel;
  content: string;
  content_hash: string;
  category: MemoryCategory;
  tags: string[];
  keywords: string[];
  importance: number;
  confidence: number;
  source_path: string | null;
  source_line: number | null;
  source_hash: string | null;
  stale: boolean;
  verified_at: Date | null;
  author_user_id: string | null;
  author_agent_id: string | null;
  author_token_id: string | null;
  pinned: boolean;
  sensitive: boolean;
  version: number;
  superseded_by: string | null;
  access_count: number;
  last_accessed_at: Date | null;
  archived_at: Date | null;
  deleted_at: Date | null;
  occurred_at: Date;
  created_at: Date;
  updated_at: Date;
  embedded: boolean;
}

/** Rows as memories, each with its project's slug (ProjectResolver.slugsOf, inside the caller's transaction). */
export async function toMemories(rows: readonly MemoryRow[], projects: ProjectResolver): Promise<Memory[]> {
  const slugs = await projects.slugsOf(rows.map((row) => row.project_id));
  return rows.map((row) => toMemory(row, row.project_id === null ? null : (slugs.get(row.project_id) ?? null)));
}

export function toMemory(row: MemoryRow, project: string | null): Memory {
  return {
    id: row.id,
    project,
    projectId: row.project_id,
    scope: row.scope,
    content: row.content,
    category: row.category,
    tags: row.tags,
    keywords: row.keywords,
    importance: row.importance,
    confidence: Number(row.confidence),
    source: row.source_path ? { path: row.source_path, line: row.source_line, contentHash: row.source_hash } : null,
    stale: row.stale,
    verifiedAt: row.verified_at,
    author: { userId: row.author_user_id, agentId: row.author_agent_id, tokenId: row.author_token_id },
    pinned: row.pinned,
    sensitive: row.sensitive,
    version: row.version,
    supersededBy: row.superseded_by,
    accessCount: row.access_count,
    lastAccessedAt: row.last_accessed_at,
    archivedAt: row.archived_at,
    deletedAt: row.deleted_at,
    occurredAt: row.occurred_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    contentHash: row.content_hash,
    embedded: row.embedded,
  };
}
