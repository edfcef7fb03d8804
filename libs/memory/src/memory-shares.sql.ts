import { type Binder } from '@cairn/db';
import { type SharePermission } from './contract/memory-sharing.types';
import { authoredBySql } from './memory-ownership';

/** Whom a share can name: a user (through any of its tokens and agents) or an agent id. */
export interface ShareViewer {
  readonly userId: string | null;
  readonly agentId: string | null;
}

/**
 * An identity as SQL expressions (bound parameters) for authoredBySql: the one way a caller's
 * ids enter the ownership rule in SQL, for the visibility filter and the sharing listings.
 */
export function identitySql(who: ShareViewer & { readonly tokenId: string | null }, params: Binder) {
  return {
    userId: `${params.add(who.userId)}::uuid`,
    agentId: `${params.add(who.agentId)}::text`,
    tokenId: `${params.add(who.tokenId)}::uuid`,
  };
}

/**
 * Every grant that gives `viewer` memory `alias`, as rows of (permission, via, grant_id,
 * by_user_id, by_agent_id, by_token_id, granted_at): the memory's direct shares naming the
 * viewer, and the tag rules naming the viewer whose owner wrote the memory, whose tag it carries
 * and whose project (or every project) it lies in. Rules are matched here, at read time, so a
 * memory tagged after the rule was made is shared too, and a deleted rule or share stops
 * counting at once. Null when the viewer has neither a user nor an agent id: nothing can name it.
 */
export function shareGrantsSql(alias: string, viewer: ShareViewer, params: Binder): string | null {
  if (viewer.userId === null && viewer.agentId === null) return null;
  const a = alias;
  const user = params.add(viewer.userId);
  const agent = params.add(viewer.agentId);
  const names = (t: string) => `(${t}.grantee_user_id = ${user}::uuid OR ${t}.grantee_agent_id = ${agent}::text)`;
  return `SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
         s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
       FROM memory_shares s WHERE s.memory_id = ${a}.id AND ${names('s')}
       UNION ALL
       SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
       FROM memory_share_rules r
       WHERE ${names('r')} AND ${ruleCoversSql('r', a)}`;
}

/**
 * Tag rule `rule` covers memory `memory` (aliases): the memory carries the rule's tag, lies in
 * its project (or the rule names none) and was written by the rule's owner.
 */
export function ruleCoversSql(rule: string, memory: string): string {
  const r = rule;
  const owner = { userId: `${r}.owner_user_id`, agentId: `${r}.owner_agent_id`, tokenId: `${r}.owner_token_id` };
  return (
    `${r}.tag = ANY(${memory}.tags) AND (${r}.project_id IS NULL OR ${r}.project_id = ${memory}.project_id)` +
    ` AND ${authoredBySql(memory, owner)}`
  );
}

/**
 * Grant notices (tenant migration 18): a share, an unshare, a tag rule made or removed, or a
 * tag taken off changes what a grantee sees without changing the memory row, so each writes
 * one notice per memory and grantee for the change feed. The INSERT head; a SELECT of
 * (memory_id, grantee_user_id, grantee_agent_id) follows.
 */
export const GRANT_NOTICE_INSERT = `INSERT INTO memory_grant_notices (memory_id, grantee_user_id, grantee_agent_id)`;

/**
 * The notices for the private memories rule `$ruleParam` covers now (a rule made, or about to
 * be removed): those its grantee gains or loses.
 */
export function ruleNoticesSql(ruleParam: string): string {
  return `${GRANT_NOTICE_INSERT}
    SELECT m.id, r.grantee_user_id, r.grantee_agent_id
    FROM memory_share_rules r JOIN memories m ON ${ruleCoversSql('r', 'm')}
    WHERE r.id = ${ruleParam} AND m.scope = 'private' AND m.deleted_at IS NULL`;
}

/**
 * The notices for memory `$idParam` if it is private and loses tags some rules cover (the
 * update setting its tags to `$tagsParam`): their grantees no longer see it. Meant as a CTE of
 * the UPDATE itself, whose snapshot still holds the old tags.
 */
export function droppedTagNoticesSql(idParam: string, tagsParam: string): string {
  return `${GRANT_NOTICE_INSERT}
    SELECT m.id, r.grantee_user_id, r.grantee_agent_id
    FROM memories m JOIN memory_share_rules r ON ${ruleCoversSql('r', 'm')}
    WHERE m.id = ${idParam} AND m.scope = 'private' AND NOT (r.tag = ANY(${tagsParam}::text[]))`;
}

/**
 * "Memory `alias` is shared with `viewer`" (by a share or a live tag rule), as a boolean SQL
 * condition; with `write`, only by a grant of write. What a share adds to what a caller may
 * read (the memory filter ORs it with the scope rules) and what lets a grantee update.
 */
export function memorySharedWithSql(
  alias: string,
  viewer: ShareViewer,
  params: Binder,
  permission: SharePermission = 'read',
): string {
  const grants = shareGrantsSql(alias, viewer, params);
  if (grants === null) return 'false';
  if (permission === 'read') return `EXISTS (${grants})`;
  return `EXISTS (SELECT 1 FROM (${grants}) g WHERE g.permission = 'write')`;
}
