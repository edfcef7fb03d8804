/** Runs one parameterized statement on the migration's connection, inside its transaction. */
export type SqlRunner = (sql: string, parameters?: unknown[]) => Promise<unknown>;

/** A forward-only schema change. Versions are dense integers starting at 1. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  up(sql: SqlRunner): Promise<void>;
}

/** Throws at boot if versions are not 1..n in order: a gap means a lost or misnamed file. */
export function assertMigrationSequence(kind: string, migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `${kind} migration #${index + 1} has version ${migration.version}; versions must be 1..n in order`,
      );
    }
  });
}
