/**
 * Who owns a memory, stated once for the two places it is checked: in code on a loaded memory
 * (`isAuthoredBy`) and in SQL on a row (`authoredBySql`), so a listing, a share rule and a
 * permission check can never disagree on it.
 *
 * The owner is the memory's author: its user when it has one (then any token or agent of that
 * user owns it), else its agent id (an agent under a service token), else the very token that
 * wrote it. The writing token itself always counts (it can only be the same user or agent).
 */
export interface OwnerIdentity {
  readonly userId: string | null;
  readonly agentId: string | null;
  readonly tokenId: string | null;
}

export function isAuthoredBy(who: OwnerIdentity, author: OwnerIdentity): boolean {
  if (author.userId) return who.userId === author.userId;
  if (who.tokenId !== null && who.tokenId === author.tokenId) return true;
  if (author.agentId) return who.agentId === author.agentId;
  return false;
}

/**
 * The same rule over the author columns of alias `alias` (`author_user_id`, `author_agent_id`,
 * `author_token_id` of a memory; another `prefix` for tables recording an owner the same way,
 * such as a share rule's `owner_*`). `who` holds SQL expressions of the identity (bound
 * parameters such as `$1::uuid`, or another row's columns); comparing with a NULL expression is
 * never true, so an absent part matches nothing.
 */
export function authoredBySql(
  alias: string,
  who: { readonly userId: string; readonly agentId: string; readonly tokenId: string },
  prefix: 'author' | 'owner' | 'granted_by' = 'author',
): string {
  const c = `${alias}.${prefix}`;
  return (
    `(CASE WHEN ${c}_user_id IS NOT NULL THEN ${c}_user_id = ${who.userId}` +
    ` ELSE (${c}_token_id = ${who.tokenId} OR ${c}_agent_id = ${who.agentId}) END IS TRUE)`
  );
}
