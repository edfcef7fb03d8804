import { type SqlParams } from '@cairn/db';
import { type MemoryScope } from './contract/memory-filter';
import { type FeedPosition } from './contract/memory-sync.types';
import { SYSTEM_VIEWER } from './contract/memory-viewer';
import { memoryScopeSql } from './memory-filter.sql';
import { MEMORY_COLUMNS } from './memory-row.sql';

/**
 * One page of the change feed for `scope`: after `cursor`, from transactions below `horizon`, in
 * (xid, memory id) order. Two sources: rows the scope sees (its project's, team ones, private
 * ones of the viewer) as they were last changed, and the viewer's grant notices (tenant
 * migration 18), each with the memory as it stands now and whether the viewer still sees it.
 * Each side is read in its index order and cut at `limit` before they are merged, so a page
 * costs `limit` rows of each, never the whole history; a notice at the same position as the
 * row's own change gives way to the row. Columns: feed_xid, visible, noticed_at, MEMORY_COLUMNS.
 */
export function changesPageSql(
  scope: MemoryScope,
  cursor: FeedPosition | undefined,
  horizon: string,
  limit: number,
  params: SqlParams,
): string {
  const window = (xid: string, id: string) => {
    const clauses = [`${xid} < ${params.add(horizon)}::xid8`];
    if (cursor?.kind === 'after') {
      clauses.push(`(${xid}, ${id}) > (${params.add(cursor.xid)}::xid8, ${params.add(cursor.id)}::uuid)`);
    } else if (cursor?.kind === 'horizon') {
      clauses.push(`${xid} >= ${params.add(cursor.xid)}::xid8`);
    }
    return clauses.join(' AND ');
  };
  const max = params.add(limit);
  const branches = [
    `(SELECT m.change_xid AS feed_xid, true AS visible, NULL::timestamptz AS noticed_at, ${MEMORY_COLUMNS}
      FROM memories m
      WHERE ${memoryScopeSql(scope, params, 'm')} AND ${window('m.change_xid', 'm.id')}
      ORDER BY m.change_xid, m.id LIMIT ${max})`,
  ];
  const viewer = scope.viewer;
  // Notices name a user or an agent; a reader with neither (or a job) has none.
  if (viewer !== SYSTEM_VIEWER && (viewer.userId !== null || viewer.agentId !== null)) {
    const grantee = `(n.grantee_user_id = ${params.add(viewer.userId)}::uuid
        OR n.grantee_agent_id = ${params.add(viewer.agentId)}::text)`;
    branches.push(
      `(SELECT n.change_xid, ${memoryScopeSql(scope, params, 'm')}, n.created_at, ${MEMORY_COLUMNS}
        FROM memory_grant_notices n JOIN memories m ON m.id = n.memory_id
        WHERE ${grantee} AND m.project_id = ANY(${params.add(scope.projectIds)}::uuid[])
          AND ${window('n.change_xid', 'n.memory_id')}
        ORDER BY n.change_xid, n.memory_id LIMIT ${max})`,
    );
  }
  return `SELECT * FROM (
     SELECT DISTINCT ON (c.feed_xid, c.id) c.* FROM (${branches.join(' UNION ALL ')}) c
     ORDER BY c.feed_xid, c.id, c.noticed_at NULLS FIRST
   ) page ORDER BY page.feed_xid, page.id LIMIT ${max}`;
}
