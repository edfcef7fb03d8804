import type * as NodeSqlite from 'node:sqlite';

export type DatabaseSync = NodeSqlite.DatabaseSync;
export type SqliteModule = typeof NodeSqlite;

let loaded: SqliteModule | undefined;

/**
 * `node:sqlite`, loaded without its ExperimentalWarning. Node 22 prints "SQLite is an
 * experimental feature" on stderr when the module is first loaded (Node 24 no longer does);
 * hooks and the stdio bridge write stderr lines a user reads, so that one warning is dropped
 * while the module loads, and every other warning still goes through. The module is loaded
 * through `process.getBuiltinModule` (not a top-level import) so this runs first.
 */
export function sqlite(): SqliteModule {
  if (loaded) return loaded;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with process as this, and put back as it was
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    if (isSqliteExperimentalWarning(warning, rest)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  };
  try {
    loaded = process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
  return loaded;
}

/** Node's wording: emitWarning('SQLite is an experimental feature…', 'ExperimentalWarning'). */
export function isSqliteExperimentalWarning(warning: string | Error, rest: readonly unknown[]): boolean {
  const message = typeof warning === 'string' ? warning : warning.message;
  const type =
    typeof warning !== 'string'
      ? warning.name
      : typeof rest[0] === 'string'
        ? rest[0]
        : (rest[0] as { type?: string } | undefined)?.type;
  return type === 'ExperimentalWarning' && /^SQLite\b/.test(message);
}
