/**
 * Where the SQL builders put their values (SqlParams of @cairn/db, which has this shape):
 * named here by shape so this rule's file stays free of the database library (only
 * repositories and *.sql.ts builders reach it).
 */
export interface SqlParams {
  add(value: unknown): string;
}
import { type MemoryViewer } from './contract/memory-viewer';

/** The author columns of a memory, as `Memory.author` carries them. */
interface Authored {
  readonly author: { readonly userId: string | null; readonly agentId: string | null; readonly tokenId: string | null };
}

/**
 * The one rule of who wrote a memory, used for privacy (who sees a private memory), for
 * changing and deleting (assertMayModify, assertMayDelete) and for shares (who owns one). The
 * viewer is the author when it is the same user (any token or agent of that user); when the
 * token has no user (a service token), the same agent id on a memory no user wrote; or the
 * very token that wrote it.
 */
export function isAuthor(memory: Authored, viewer: MemoryViewer): boolean {
  const { author } = memory;
  if (viewer.userId !== null && author.userId === viewer.userId) return true;
  if (viewer.userId === null && viewer.agentId !== null && author.userId === null) {
    if (author.agentId === viewer.agentId) return true;
  }
  return author.tokenId !== null && author.tokenId === viewer.tokenId;
}

/** isAuthor as SQL over the memory `alias`'s author columns; values go through `params`. */
export function authorMatchSql(alias: string, viewer: MemoryViewer, params: SqlParams): string {
  const a = alias;
  const clauses = [`${a}.author_token_id = ${params.add(viewer.tokenId)}::uuid`];
  if (viewer.userId !== null) {
    clauses.push(`${a}.author_user_id = ${params.add(viewer.userId)}::uuid`);
  } else if (viewer.agentId !== null) {
    clauses.push(`(${a}.author_agent_id = ${params.add(viewer.agentId)} AND ${a}.author_user_id IS NULL)`);
  }
  return `(${clauses.join(' OR ')})`;
}

/**
 * The same rule between a tag share rule's owner columns (`owner_*` of `rule`) and a memory's
 * author columns: the rule covers only memories its owner wrote.
 */
export function ownerMatchSql(rule: string, memory: string): string {
  const [r, m] = [rule, memory];
  return (
    `(${m}.author_token_id = ${r}.owner_token_id OR ${m}.author_user_id = ${r}.owner_user_id` +
    ` OR (${r}.owner_user_id IS NULL AND ${m}.author_user_id IS NULL AND ${m}.author_agent_id = ${r}.owner_agent_id))`
  );
}

/**
 * Whether a share or a tag share rule gives `viewer` the memory `alias`: a `memory_shares` row
 * naming the viewer's user or agent, or a rule of the memory's author whose tag the memory
 * carries, for its project or for every project. Evaluated at read time, so a revoked share
 * or a later-tagged memory takes effect at once.
 */
export function sharedWithSql(alias: string, viewer: MemoryViewer, params: SqlParams): string {
  const user = viewer.userId === null ? null : params.add(viewer.userId);
  const agent = viewer.agentId === null ? null : params.add(viewer.agentId);
  if (user === null && agent === null) return 'false';
  const grantee = (t: string) => {
    const who: string[] = [];
    if (user !== null) who.push(`${t}.grantee_user_id = ${user}::uuid`);
    if (agent !== null) who.push(`${t}.grantee_agent_id = ${agent}`);
    return `(${who.join(' OR ')})`;
  };
  const a = alias;
  return (
    `(EXISTS (SELECT 1 FROM memory_shares s WHERE s.memory_id = ${a}.id AND ${grantee('s')})` +
    ` OR EXISTS (SELECT 1 FROM memory_share_rules r WHERE ${grantee('r')} AND r.tag = ANY(${a}.tags)` +
    ` AND (r.project_id IS NULL OR r.project_id = ${a}.project_id) AND ${ownerMatchSql('r', a)}))`
  );
}
