export {
  type AdvisoryLockTarget,
  LOCK_NAMESPACE,
  MIGRATION_LOCK_ID,
  SessionUnavailableError,
  withAdvisoryLock,
} from './advisory-lock.repository';
export { ClusterPools, HOME_CLUSTER } from './cluster-pools.service';
export { MemberClusterMigrator } from './member-cluster-migrator.service';
export { type AppliedMigration, CONTROL_SCHEMA, ControlMigrator } from './control-migrator.service';
export { DatabaseModule } from './database.module';
export { PreparedStatements, queryPreparedIn, statementName } from './prepared-statements.service';
export { assertMigrationSequence, type Migration, type SqlRunner } from './migration.types';
export { type Binder, SqlParams } from './sql-params';
export { queryWithoutStatementTimeout } from './unbounded-statement.repository';
export { queryReturning } from './update-returning.repository';
export {
  SqlSnapshot,
  NoSqlSnapshot,
  type SqlExample,
  type SqlSnapshotPlan,
  sqlSnapshotPlan,
} from './sql-snapshot.decorator';
export { GeneratedArgument, SNAPSHOT_EXAMPLE } from './sql-examples';
