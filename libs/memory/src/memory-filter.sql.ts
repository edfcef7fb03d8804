import { type SqlParams } from '@cairn/db';
import { type MemoryFilter } from './contract/memory-filter';

/** Boolean SQL over `alias` for a filter; values go through `params`. Deleted rows never match. */
export function memoryFilterSql(filter: MemoryFilter, params: SqlParams, alias: string): string {
  const a = alias;
  const clauses = [`${a}.deleted_at IS NULL`];
  const projects = params.add(filter.scope.projectIds);
  clauses.push(
    filter.scope.includeTenantWide
      ? `(${a}.project_id = ANY(${projects}::uuid[]) OR ${a}.project_id IS NULL)`
      : `${a}.project_id = ANY(${projects}::uuid[])`,
  );
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
