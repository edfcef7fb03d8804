import { type SqlParams } from '@cairn/db';
import { type GrantPosition, type Party } from './contract/memory-sharing.types';
import { authoredBySql } from './memory-ownership';
import { MEMORY_COLUMNS } from './memory-row.sql';
import { identitySql, memorySharedWithSql, shareGrantsSql } from './memory-shares.sql';

/**
 * Memories of a project (and tenant-wide ones) shared with `viewer` and not its own, newest
 * first after the memory `afterId`; each with its strongest grant (write before read, a share
 * before a rule, the oldest first). Which memories is decided by memory's own "shared with"
 * fragment alone, the one the visibility filter uses (the grant is only joined for its details),
 * so this listing's tests are that fragment's too; null when nothing can name the viewer.
 */
export function sharedWithSql(
  viewer: Party,
  projectId: string,
  limit: number,
  afterId: string | undefined,
  params: SqlParams,
): string | null {
  const grants = shareGrantsSql('m', viewer, params);
  if (grants === null) return null;
  const shared = memorySharedWithSql('m', viewer, params);
  const project = params.add(projectId);
  const mine = authoredBySql('m', identitySql(viewer, params));
  const after = afterId
    ? `AND (m.created_at, m.id) < (SELECT c.created_at, c.id FROM memories c WHERE c.id = ${params.add(afterId)}::uuid)`
    : '';
  return `SELECT ${MEMORY_COLUMNS}, g.permission AS grant_permission, g.via AS grant_via, g.grant_id,
       g.by_user_id, g.by_agent_id, g.by_token_id, g.granted_at
     FROM memories m
     LEFT JOIN LATERAL (
       SELECT * FROM (${grants}) x
       ORDER BY (x.permission = 'write') DESC, (x.via = 'share') DESC, x.granted_at, x.grant_id LIMIT 1
     ) g ON true
     WHERE m.deleted_at IS NULL AND (m.project_id = ${project}::uuid OR m.scope = 'team')
       AND NOT ${mine} AND ${shared} ${after}
     ORDER BY m.created_at DESC, m.id DESC LIMIT ${params.add(limit)}`;
}

/**
 * Shares (of live memories of the project or tenant-wide ones) and tag rules (of the project
 * or every project), newest first. With `who`, only the caller's: shares it granted or of
 * memories it owns, and rules it owns; without, every one (an admin's view).
 */
export function grantsSql(
  who: Party | null,
  projectId: string,
  memoryId: string | undefined,
  limit: number,
  after: GrantPosition | undefined,
  params: SqlParams,
): string {
  const project = params.add(projectId);
  const me = who ? identitySql(who, params) : null;
  const shareWho = me ? `AND (${authoredBySql('m', me)} OR ${authoredBySql('s', me, 'granted_by')})` : '';
  const ruleWho = me ? `AND ${authoredBySql('r', me, 'owner')}` : '';
  const oneMemory = memoryId ? `AND s.memory_id = ${params.add(memoryId)}::uuid` : '';
  const position = after
    ? `WHERE (g.created_at, g.id) < (${params.add(after.at)}::timestamptz, ${params.add(after.id)}::uuid)`
    : '';
  return `SELECT g.*, to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at
     FROM (
       SELECT 'share' AS kind, s.id, s.memory_id, NULL::text AS tag, m.project_id,
         s.grantee_user_id, s.grantee_agent_id, s.permission, s.granted_by_user_id AS by_user_id,
         s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at
       FROM memory_shares s JOIN memories m ON m.id = s.memory_id
       WHERE m.deleted_at IS NULL AND (m.project_id = ${project}::uuid OR m.scope = 'team') ${shareWho} ${oneMemory}
       UNION ALL
       SELECT 'rule', r.id, NULL::uuid, r.tag, r.project_id, r.grantee_user_id, r.grantee_agent_id,
         r.permission, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
       FROM memory_share_rules r
       WHERE (r.project_id = ${project}::uuid OR r.project_id IS NULL) ${ruleWho} ${memoryId ? 'AND false' : ''}
     ) g
     ${position}
     ORDER BY g.created_at DESC, g.id DESC LIMIT ${params.add(limit)}`;
}
