/**
 * A new tenant's schema as the tenant migrations leave it, in one script: the structure
 * `pg_dump --schema-only` prints for a schema migrated through the first `version` migrations.
 *
 * Why: replaying every migration at provisioning costs each historical step again, and some
 * steps grow with the database, not with the tenant (`ALTER TABLE … ADD COLUMN … DEFAULT` took
 * 107–135 ms on an empty table among 2,000 tenant schemas, against 0.5 ms in an empty database:
 * docs/scaling.md). A new schema is created as it ends up instead; existing tenants still move
 * forward one migration at a time (`npm run migrate`). The spec beside this file proves the
 * script and the replay give the same schema (their `pg_dump`s compared) and regenerates it.
 */
export interface TenantSchemaBaseline {
  /** The last migration the script embodies. */
  readonly version: number;
  /** The names of migrations 1..version, so a different migration list is never mistaken for it. */
  readonly migrations: readonly string[];
  /** Statements with unqualified names, run with the tenant's schema first on the search path. */
  readonly sql: string;
}

/** Injection token: tests provide `null` to provision by replaying every migration. */
export const TENANT_SCHEMA_BASELINE = Symbol('TENANT_SCHEMA_BASELINE');

/** True when `baseline` is exactly the first migrations of `migrations`, so it may stand for them. */
export function baselineCovers(
  baseline: TenantSchemaBaseline | null,
  migrations: readonly { readonly version: number; readonly name: string }[],
): boolean {
  if (!baseline || baseline.version > migrations.length) return false;
  return baseline.migrations.every(
    (name, index) => migrations[index]?.name === name && migrations[index]?.version === index + 1,
  );
}

/**
 * The baseline script from `pg_dump --schema-only --no-owner --no-privileges` of `schema`:
 * pg_dump's session settings and psql meta-commands dropped (a pooled connection must keep no
 * session state), the schema's own statements dropped (provisioning creates and stamps it), the
 * schema's name taken off every name, and functions' pinned search path written back the way
 * the migrations wrote it (`FROM CURRENT`, the new tenant's path at creation).
 */
export function baselineFromDump(dump: string, schema: string): string {
  const statements: string[] = [];
  let quote: string | null = null; // the dollar-quote tag of a function body being read
  for (const line of dump.split('\n')) {
    const inBody = quote !== null;
    for (const [tag] of line.matchAll(/\$[A-Za-z_]*\$/g)) {
      if (quote === null) quote = tag;
      else if (tag === quote) quote = null;
    }
    // A body's lines are its source, blank ones and comments included: kept as they are.
    if (!inBody && isDumpNoise(line)) continue;
    statements.push(line);
  }
  const text = statements
    .join('\n')
    .replaceAll(`SET search_path TO '${schema}', 'public'`, 'SET search_path FROM CURRENT')
    .replaceAll(`${schema}.`, '');
  if (text.includes(schema)) throw new Error(`the baseline still names the schema ${schema} somewhere`);
  // pg_dump creates functions before the tables their bodies read; it relies on this setting.
  return `SET LOCAL check_function_bodies = false;\n${text}\nSET LOCAL check_function_bodies TO DEFAULT;\n`;
}

/** pg_dump's comments, blank lines, psql meta-commands, session settings and the schema's own statements. */
function isDumpNoise(line: string): boolean {
  return (
    line.trim() === '' ||
    line.startsWith('--') ||
    line.startsWith('\\') ||
    /^(SET |SELECT pg_catalog\.set_config\()/.test(line) ||
    /^(CREATE SCHEMA|COMMENT ON SCHEMA|ALTER SCHEMA) /.test(line)
  );
}
