import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { CONTROL_MIGRATIONS } from './migrations';
import { assertMigrationSequence, type Migration } from './migration.types';

export const CONTROL_SCHEMA = 'cairn';

export interface AppliedMigration {
  readonly version: number;
  readonly name: string;
  readonly durationMs: number;
}

/** Applies control-schema migrations; each version commits on its own, so a rerun resumes. */
@Injectable()
export class ControlMigrator {
  readonly migrations: readonly Migration[] = CONTROL_MIGRATIONS;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    assertMigrationSequence('control', this.migrations);
  }

  get latestVersion(): number {
    return this.migrations.length;
  }

  /** Version recorded in the database; 0 when the control schema does not exist yet. */
  async currentVersion(): Promise<number> {
    const [row] = await this.dataSource.query<{ present: boolean }[]>(
      `SELECT to_regclass('cairn.control_migrations') IS NOT NULL AS present`,
    );
    if (!row.present) return 0;
    const [version] = await this.dataSource.query<{ version: number }[]>(
      `SELECT coalesce(max(version), 0)::int AS version FROM cairn.control_migrations`,
    );
    return version.version;
  }

  /** Callers hold the migration advisory lock. */
  async migrate(): Promise<AppliedMigration[]> {
    await this.dataSource.query(`CREATE SCHEMA IF NOT EXISTS ${CONTROL_SCHEMA}`);
    await this.dataSource.query(`
      CREATE TABLE IF NOT EXISTS cairn.control_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const current = await this.currentVersion();
    const applied: AppliedMigration[] = [];
    for (const migration of this.migrations.filter((m) => m.version > current)) {
      const started = performance.now();
      await this.dataSource.transaction(async (manager) => {
        await migration.up((sql, parameters) => manager.query(sql, parameters));
        await manager.query(`INSERT INTO cairn.control_migrations (version, name) VALUES ($1, $2)`, [
          migration.version,
          migration.name,
        ]);
      });
      applied.push({
        version: migration.version,
        name: migration.name,
        durationMs: Math.round(performance.now() - started),
      });
    }
    return applied;
  }
}
