/**
 * What a reader of an audit log may narrow it to (platform and tenant logs alike): entries of one
 * actor, one action, one outcome, and a time range. Every field is optional; `limit` and
 * `beforeId` page newest first.
 */
export interface AuditFilter {
  readonly limit: number;
  readonly beforeId?: string;
  /** An actor as actorOf() spells it; `user:<id>` also matches every `user:<id>/token:<id>` of that user. */
  readonly actor?: string;
  /** An action (`tenant.create`); ending with a dot, every action under it (`mcp.`, `job.`). */
  readonly action?: string;
  readonly outcome?: 'success' | 'denied' | 'failure';
  /** Entries at or after this instant. */
  readonly from?: Date;
  /** Entries before this instant. */
  readonly to?: Date;
}

/**
 * The SQL condition of the optional fields over the alias `a`, its parameters numbered from
 * `first`: a fixed text whatever is set (a NULL parameter switches its test off), so the
 * statement, its plan cache and its snapshot stay one.
 */
export function auditFilterSql(first: number): string {
  const [actor, action, outcome, from, to] = [0, 1, 2, 3, 4].map((n) => `$${first + n}`);
  return (
    `(${actor}::text IS NULL OR a.actor = ${actor}::text OR starts_with(a.actor, ${actor}::text || '/'))` +
    ` AND (${action}::text IS NULL OR a.action = ${action}::text` +
    ` OR (right(${action}::text, 1) = '.' AND starts_with(a.action, ${action}::text)))` +
    ` AND (${outcome}::text IS NULL OR a.outcome = ${outcome}::text)` +
    ` AND (${from}::timestamptz IS NULL OR a.at >= ${from}::timestamptz)` +
    ` AND (${to}::timestamptz IS NULL OR a.at < ${to}::timestamptz)`
  );
}

export function auditFilterParams(filter: AuditFilter): unknown[] {
  return [
    filter.actor ?? null,
    filter.action ?? null,
    filter.outcome ?? null,
    filter.from?.toISOString() ?? null,
    filter.to?.toISOString() ?? null,
  ];
}
