import { type Binder } from '@cairn/db';
import { type CorpusQuery, type OccurredWindow } from './contract/corpus';

/**
 * Rows of the corpus that occurred within `window`, those inside `core` (the question's own
 * range) first, then by distance from it, newest first among equals: the candidates a dated
 * question adds to what the rankers found ("what did I do last Saturday?" shares no word with
 * "Repaired the bike"). For memories, memories_project_occurred (project_id, occurred_at) serves it.
 */
export function datedCandidatesStatement(
  query: CorpusQuery,
  window: OccurredWindow,
  core: OccurredWindow,
  limit: number,
  params: Binder,
): string {
  const { definition, filter } = query;
  const at = `m.${occurredColumn(query)}`;
  const clauses = [definition.condition(filter, params, 'm')];
  if (window.from) clauses.push(`${at} >= ${params.add(window.from)}`);
  if (window.to) clauses.push(`${at} < ${params.add(window.to)}`);
  // How far outside the core range: 0 inside it.
  const distance = [`interval '0'`];
  if (core.from) distance.push(`${params.add(core.from)}::timestamptz - ${at}`);
  if (core.to) distance.push(`${at} - ${params.add(core.to)}::timestamptz`);
  return `SELECT m.id FROM ${definition.table} m
    WHERE ${clauses.join(' AND ')}
    ORDER BY greatest(${distance.join(', ')}), ${at} DESC, m.id
    LIMIT ${params.add(limit)}`;
}

/** When row `$id` of the corpus occurred, if the filter still admits it: where a dated question's anchor lies. */
export function occurredAtStatement(query: CorpusQuery, id: string, params: Binder): string {
  const { definition, filter } = query;
  const where = definition.condition(filter, params, 'c');
  return `SELECT c.${occurredColumn(query)} AS at FROM ${definition.table} c WHERE c.id = ${params.add(id)}::uuid AND ${where}`;
}

function occurredColumn(query: CorpusQuery): string {
  const column = query.definition.occurredAt;
  if (!column) throw new Error(`corpus ${query.definition.table} has no time column: it cannot answer dated questions`);
  return column;
}
