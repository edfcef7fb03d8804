import { type SessionPrincipal } from '@cairn/access';
import { type LiveTenant } from '@cairn/tenancy';
import { type GenerationJobRow } from './contract/generation-request.types';

/**
 * The principal a job acts as: the client who asked, as the request row recorded it. Services
 * that write on someone's behalf (MemoryWriter, SessionSummaryService) then record the same
 * author and resolve the same agent key (`agentKeyOf`: agent, else user, else token) as the
 * original HTTP call would have, so the session summary lands in the requesting agent's
 * working memory. Its project scope is the request's project alone; its role is the least
 * that writes (`agent`), as the job only writes the requester's own results.
 */
export function requesterPrincipal(tenant: LiveTenant, request: GenerationJobRow): SessionPrincipal {
  const { userId, agentId, tokenId } = request.requestedBy;
  return {
    kind: 'session',
    tokenId: tokenId ?? request.id,
    tenant,
    role: 'agent',
    userId,
    agentId,
    projects: [request.projectSlug],
    defaultProject: request.projectSlug,
    toolsets: [],
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  };
}
