import { type MemoryView } from '../contract/memory.dto';

/**
 * Compact text renderings for agents: one line per memory with what it takes to act on it
 * (full id, category, importance, flags), none of the JSON bookkeeping. The structured copy
 * carries everything else.
 */
export function memoryLine(memory: MemoryView, index?: number): string {
  const flags = [
    memory.pinned ? 'pinned' : '',
    memory.stale ? 'STALE' : '',
    memory.archived ? 'archived' : '',
    memory.supersededBy ? `superseded by ${memory.supersededBy}` : '',
    memory.project === null ? 'tenant-wide' : '',
  ].filter(Boolean);
  const source = memory.source ? ` @${memory.source.path}${memory.source.line ? `:${memory.source.line}` : ''}` : '';
  const prefix = index === undefined ? '' : `${index + 1}. `;
  const meta = `[${memory.category} i${memory.importance}${flags.length ? ` ${flags.join(', ')}` : ''}]`;
  return `${prefix}${meta} ${memory.content}${source} (id ${memory.id}, ${memory.createdAt.slice(0, 10)})`;
}

export function memoryLines(memories: readonly MemoryView[], empty: string): string {
  return memories.length === 0 ? empty : memories.map((memory, index) => memoryLine(memory, index)).join('\n');
}

/** Tells the agent how to continue, only when there is more. */
export function nextPageLine(nextCursor: string | null): string {
  return nextCursor ? `More: call again with cursor "${nextCursor}".` : '';
}

export function authorLabel(author: { userId: string | null; agentId: string | null }): string {
  if (author.agentId) return `agent ${author.agentId}`;
  if (author.userId) return `user ${author.userId}`;
  return 'a service token';
}

/** What memory_get adds to the one-line view: the fields an agent needs to edit or judge it. */
export function memoryDetails(memory: MemoryView): string {
  const parts = [
    `v${memory.version} by ${authorLabel(memory.author)}`,
    `confidence ${memory.confidence}`,
    memory.tags.length ? `tags: ${memory.tags.join(', ')}` : '',
    memory.keywords.length ? `keywords: ${memory.keywords.join(', ')}` : '',
    memory.source?.contentHash ? `source hash ${memory.source.contentHash}` : '',
    `updated ${memory.updatedAt.slice(0, 10)}`,
  ];
  return parts.filter(Boolean).join('; ');
}
