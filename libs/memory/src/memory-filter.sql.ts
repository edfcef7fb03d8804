import { type Binder } from '@cairn/db';
import { type MemoryFilter, type MemoryScope } from './contract/memory-filter';
import { SYSTEM_VIEWER, type Viewer } from './contract/memory-viewer';
import { authoredBySql } from './memory-ownership';
import { identitySql, memorySharedWithSql } from './memory-shares.sql';

/**
 * Where a memory may be seen from `scope`, over `alias`: its project is one of the scope's, or it
 * is a team memory and team memories are included; and, when it is private, the viewer wrote it
 * or was given it (a share or a tag rule). The one visibility rule of every read of memories.
 */
export function memoryScopeSql(scope: MemoryScope, params: Binder, alias: string): string {
  const a = alias;
  const projects = `${a}.project_id = ANY(${params.add(scope.projectIds)}::uuid[])`;
  const where = scope.includeTenantWide ? `(${projects} OR ${a}.scope = 'team')` : projects;
  return scope.viewer === SYSTEM_VIEWER ? where : `${where} AND ${privacySql(scope.viewer, params, a)}`;
}

/** The privacy half of memoryScopeSql alone: not private, or private and the viewer's to see. */
export function privacySql(viewer: Viewer, params: Binder, alias: string): string {
  const a = alias;
  if (viewer === SYSTEM_VIEWER) return 'true';
  const own = authoredBySql(a, identitySql(viewer, params));
  const shared = memorySharedWithSql(a, viewer, params);
  return `(${a}.scope <> 'private' OR ${own} OR ${shared})`;
}

/** Boolean SQL over `alias` for a filter; values go through `params`. Deleted rows never match. */
export function memoryFilterSql(filter: MemoryFilter, params: Binder, alias: string): string {
  const a = alias;
  const clauses = [`${a}.deleted_at IS NULL`, memoryScopeSql(filter.scope, params, a)];
  if (!filter.includeArchived) clauses.push(`${a}.archived_at IS NULL`);
  if (!filter.includeSuperseded) clauses.push(`${a}.superseded_by IS NULL`);
  if (filter.categories?.length) clauses.push(`${a}.category = ANY(${params.add(filter.categories)}::text[])`);
  if (filter.tags?.length) clauses.push(`${a}.tags && ${params.add(filter.tags)}::text[]`);
  if (filter.authorAgentId) clauses.push(`${a}.author_agent_id = ${params.add(filter.authorAgentId)}`);
  if (filter.authorUserId) clauses.push(`${a}.author_user_id = ${params.add(filter.authorUserId)}::uuid`);
  if (filter.createdAfter) clauses.push(`${a}.created_at >= ${params.add(filter.createdAfter)}`);
  if (filter.createdBefore) clauses.push(`${a}.created_at < ${params.add(filter.createdBefore)}`);
  if (filter.occurredFrom) clauses.push(`${a}.occurred_at >= ${params.add(filter.occurredFrom)}`);
  if (filter.occurredBefore) clauses.push(`${a}.occurred_at < ${params.add(filter.occurredBefore)}`);
  if (filter.stale !== undefined) clauses.push(`${a}.stale = ${params.add(filter.stale)}`);
  if (filter.pinned !== undefined) clauses.push(`${a}.pinned = ${params.add(filter.pinned)}`);
  return clauses.join(' AND ');
}
