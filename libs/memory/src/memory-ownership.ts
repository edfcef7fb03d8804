/**
 * Who owns a memory, stated once for the two places it is checked: in code on a loaded memory
 * (`isAuthoredBy`) and in SQL on a row (`authoredBySql`), so a listing, a share rule and a
 * permission check can never disagree on it.
 *
 * The owner is the memory's author: the same user (any token or agent of that user); for a
 * caller without a user (a service token), the same agent id on a memory no user wrote; or the
 * very token that wrote it.
 */
export interface OwnerIdentity {
  readonly userId: string | null;
  readonly agentId: string | null;
  readonly tokenId: string | null;
}

export function isAuthoredBy(who: OwnerIdentity, author: OwnerIdentity): boolean {
  if (who.userId !== null && author.userId === who.userId) return true;
  if (who.userId === null && who.agentId !== null && author.userId === null && author.agentId === who.agentId) {
    return true;
  }
  return author.tokenId !== null && author.tokenId === who.tokenId;
}

/**
 * The same rule over the author columns of alias `alias` (`author_user_id`, `author_agent_id`,
 * `author_token_id` of a memory; another `prefix` for a table recording a party the same way,
 * such as a share rule's `owner_*` or a share's `granted_by_*`). `who` holds SQL expressions of
 * the identity (bound parameters such as `$1::uuid`, or another row's columns, whose nulls are
 * only known when it runs); never NULL itself, so it can be negated.
 */
export function authoredBySql(
  alias: string,
  who: { readonly userId: string; readonly agentId: string; readonly tokenId: string },
  prefix: 'author' | 'owner' | 'granted_by' = 'author',
): string {
  const c = `${alias}.${prefix}`;
  return (
    `((${c}_token_id = ${who.tokenId} OR ${c}_user_id = ${who.userId}` +
    ` OR (${who.userId} IS NULL AND ${c}_user_id IS NULL AND ${c}_agent_id = ${who.agentId})) IS TRUE)`
  );
}
