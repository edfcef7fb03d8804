import { roleGrants, type SessionPrincipal } from '@cairn/access';
import { ForbiddenError } from '@cairn/common';
import { type KbDocument } from './contract/kb.types';

/**
 * Who may remove a knowledge-base document (delete it, or replace it by indexing new content
 * under its source): its author, or a maintainer role, the same roles that may change anyone's
 * memories (`memory.maintain`: member, admin). The author is, as for memories, the user who
 * indexed it (any of that user's agents), or for a service token without a user the same
 * agent, or the very token that indexed it; a document recorded with none of them (indexed
 * before tokens were recorded) is a maintainer's to remove.
 */
export function mayRemoveDocument(
  principal: SessionPrincipal,
  document: Pick<KbDocument, 'authorUserId' | 'authorAgentId' | 'authorTokenId'>,
): boolean {
  if (roleGrants(principal.role, 'memory.maintain')) return true;
  if (document.authorUserId) return principal.userId === document.authorUserId;
  if (document.authorAgentId) return principal.agentId === document.authorAgentId;
  return document.authorTokenId !== null && principal.tokenId === document.authorTokenId;
}

export function assertMayRemoveDocument(
  principal: SessionPrincipal,
  document: Pick<KbDocument, 'authorUserId' | 'authorAgentId' | 'authorTokenId'>,
  action: 'delete' | 'replace',
): void {
  if (mayRemoveDocument(principal, document)) return;
  throw new ForbiddenError(
    action === 'delete'
      ? 'Only the author of a document or a maintainer may delete it'
      : 'This source has a version by another author: only its author or a maintainer may replace it',
    'not_owner',
  );
}
