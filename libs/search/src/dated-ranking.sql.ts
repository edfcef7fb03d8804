import { type Binder } from '@cairn/db';
import { type CorpusQuery, type OccurredWindow } from './contract/corpus';

/**
 * Rows of the corpus that occurred within `window`, those inside `core` (the question's own
 * range) first, then by distance from it, newest first among equals: the candidates a dated
 * question adds to what the rankers found ("what did I do last Saturday?" shares no word with
 * "Repaired the bike").
 *
 * The distance is a computed key no index yields, so the window is read as up to three pieces
 * that an index on the time column does yield in the key's order, each stopped at the limit:
 * inside the core newest first, before it newest first (nearest first), after it oldest first
 * (nearest first); their union, ordered by the key, keeps the same first `limit` rows as ordering
 * the whole window would (every row of the result is among its own piece's first `limit`), while
 * reading at most `limit` rows of each piece that the filter admits, not the whole window (a month
 * of a million memories is a twelfth of them). For memories, memories_occurred gives the order.
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
  const from = core.from ? `${params.add(core.from)}::timestamptz` : undefined;
  const to = core.to ? `${params.add(core.to)}::timestamptz` : undefined;
  const rows = params.add(limit);
  const piece = (bounds: string[], order: string) =>
    `(SELECT m.id, ${at} AS at FROM ${definition.table} m
      WHERE ${[...clauses, ...bounds].join(' AND ')}
      ORDER BY ${order}, m.id LIMIT ${rows})`;
  const inside: string[] = [];
  if (from) inside.push(`${at} >= ${from}`);
  if (to) inside.push(`${at} < ${to}`);
  const pieces = [piece(inside, `${at} DESC`)];
  if (from) pieces.push(piece([`${at} < ${from}`], `${at} DESC`));
  if (to) pieces.push(piece([`${at} >= ${to}`], `${at} ASC`));
  // How far outside the core range: 0 inside it.
  const distance = [`interval '0'`];
  if (from) distance.push(`${from} - p.at`);
  if (to) distance.push(`p.at - ${to}`);
  return `SELECT p.id FROM (${pieces.join(`
    UNION ALL `)}) p
    ORDER BY greatest(${distance.join(', ')}), p.at DESC, p.id
    LIMIT ${rows}`;
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
