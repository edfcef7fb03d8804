import { type SqlParams } from '@cairn/db';
import { type MemoryFilter } from './contract/memory-filter';
import { memoryFilterSql } from './memory-filter.sql';

/** A time window over `occurred_at`; a null end is open. */
export interface OccurredWindow {
  readonly from: Date | null;
  readonly to: Date | null;
}

/**
 * Memories matching `filter` that occurred within `window`, those inside `core` (the question's
 * own range) first, then by distance from it, newest first among equals: the candidates a
 * dated question adds to what the rankers found ("what did I do last Saturday?" shares no
 * word with "Repaired the bike"). Served by memories_project_occurred (project_id, occurred_at).
 */
export function datedCandidatesSql(
  filter: MemoryFilter,
  window: OccurredWindow,
  core: OccurredWindow,
  limit: number,
  params: SqlParams,
): string {
  const clauses = [memoryFilterSql(filter, params, 'm')];
  if (window.from) clauses.push(`m.occurred_at >= ${params.add(window.from)}`);
  if (window.to) clauses.push(`m.occurred_at < ${params.add(window.to)}`);
  // How far outside the core range: 0 inside it.
  const distance = [`interval '0'`];
  if (core.from) distance.push(`${params.add(core.from)}::timestamptz - m.occurred_at`);
  if (core.to) distance.push(`m.occurred_at - ${params.add(core.to)}::timestamptz`);
  return `SELECT m.id FROM memories m
    WHERE ${clauses.join(' AND ')}
    ORDER BY greatest(${distance.join(', ')}), m.occurred_at DESC, m.id
    LIMIT ${params.add(limit)}`;
}
