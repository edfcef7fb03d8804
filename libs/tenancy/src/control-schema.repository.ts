import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  type AppliedMigration,
  ControlMigrator,
  MemberClusterMigrator,
  MIGRATION_LOCK_ID,
  NoSqlSnapshot,
  SqlSnapshot,
  withAdvisoryLock,
} from '@cairn/db';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type DataSource } from 'typeorm';

export type { AppliedMigration } from '@cairn/db';

/**
 * The control schema's migrations and the cluster-wide migration lock, as the migration run
 * (SchemaMigrationService) uses them: the database layer stays in @cairn/db.
 */
@Injectable()
export class ControlSchemaRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly control: ControlMigrator,
    private readonly members: MemberClusterMigrator,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
  ) {}

  /** Runs `work` holding the migration advisory lock; `onWait` first if another run holds it. */
  @SqlSnapshot({ params: [() => undefined, () => Promise.resolve()] })
  withMigrationLock<T>(onWait: () => void, work: () => Promise<T>): Promise<T> {
    const target = { dataSource: this.dataSource, database: this.config.database };
    return withAdvisoryLock(target, 'npm run migrate', MIGRATION_LOCK_ID, onWait, work);
  }

  get latestVersion(): number {
    return this.control.latestVersion;
  }

  @SqlSnapshot({ params: [] })
  currentVersion(): Promise<number> {
    return this.control.currentVersion();
  }

  /** Callers hold the migration lock. */
  @SqlSnapshot({ name: 'nothing to apply', params: [] })
  migrate(): Promise<AppliedMigration[]> {
    return this.control.migrate();
  }

  /** Prepares each member cluster of DATABASE_CLUSTERS (extensions, the outbox); the names done. Callers hold the migration lock. */
  @NoSqlSnapshot('runs only on member clusters (MemberClusterMigrator), which the snapshot database has none of')
  migrateMembers(): Promise<string[]> {
    return this.members.migrate();
  }
}
