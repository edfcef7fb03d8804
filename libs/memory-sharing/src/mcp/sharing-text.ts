import { memoryLines } from '@cairn/memory';
import { type z } from 'zod';
import { type grantViewSchema, type sharedMemoryViewSchema } from '../contract/sharing.dto';

type GrantView = z.infer<typeof grantViewSchema>;
type SharedView = z.infer<typeof sharedMemoryViewSchema>;

function whom(party: { userId: string | null; agentId: string | null }): string {
  if (party.agentId) return `agent ${party.agentId}`;
  if (party.userId) return `user ${party.userId}`;
  return 'a service token';
}

/** One line per share or rule: what, with whom, which permission, and the id memory_unshare takes. */
export function grantLine(grant: GrantView): string {
  const what =
    grant.kind === 'share'
      ? `memory ${grant.memoryId}`
      : `tag "${grant.tag}" of ${whom(grant.owner)} (${grant.project === null ? 'every project' : grant.project})`;
  return `${grant.kind} ${grant.id}: ${what} → ${whom(grant.grantee)} (${grant.permission})`;
}

/** A shared memory as memory tools show one, after how it is shared. */
export function sharedLine(item: SharedView, index: number): string {
  const how = `[${item.permission}, ${item.via === 'share' ? 'shared' : 'tag rule'} by ${whom(item.sharedBy)}]`;
  return `${index + 1}. ${how} ${memoryLines([item.memory], '')}`;
}
