import { type TemporalReport } from '../contract/memory-query.dto';
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
    // Project scope is the norm: only the others are said.
    memory.scope === 'private' ? 'private' : '',
    memory.scope === 'team' && memory.project !== null ? `team, from ${memory.project}` : '',
  ].filter(Boolean);
  const source = memory.source ? ` @${memory.source.path}${memory.source.line ? `:${memory.source.line}` : ''}` : '';
  const prefix = index === undefined ? '' : `${index + 1}. `;
  const meta = `[${memory.category} i${memory.importance}${flags.length ? ` ${flags.join(', ')}` : ''}]`;
  const day = memory.createdAt.slice(0, 10);
  const occurred = memory.occurredAt.slice(0, 10) === day ? '' : `, occurred ${memory.occurredAt.slice(0, 10)}`;
  return `${prefix}${meta} ${memory.content}${source} (id ${memory.id}, ${day}${occurred})`;
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

/** How a recall read the query's dates, in one line (none when it named none). */
export function datesLine(temporal: TemporalReport | undefined): string[] {
  if (!temporal) return [];
  const parts: string[] = [];
  const range = temporal.range;
  if (range) {
    // `to` is exclusive: show the last day in the range.
    const first = range.from?.slice(0, 10) ?? '…';
    const last = range.to ? new Date(Date.parse(range.to) - 1).toISOString().slice(0, 10) : '…';
    const span = range.from || range.to ? (first === last ? first : `${first} to ${last}`) : 'unplaced';
    parts.push(`"${range.expression}" → ${span} (${range.applied === 'none' ? 'not applied' : range.applied})`);
  }
  if (temporal.order) parts.push(`"${temporal.order.expression}" → ${temporal.order.direction} first`);
  return [`dates (as of ${temporal.reference.slice(0, 10)}): ${parts.join('; ')}`];
}

/** For a sensitive memory: where its content went, and how its writer or an admin reads it back. */
export function sealedLine(memory: MemoryView): string[] {
  if (!memory.sensitive) return [];
  return [`Content encrypted; stored as ${memory.content} (secret_get with its id returns it).`];
}
