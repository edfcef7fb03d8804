import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { ReadinessRegistry } from '@cairn/observability';
import { type DataSource } from 'typeorm';
import { ClusterPools } from './cluster-pools.service';
import { ControlMigrator } from './control-migrator.service';
import { MemberClusterMigrator } from './member-cluster-migrator.service';
import { poolOptions } from './pool-options';
import { PreparedStatements } from './prepared-statements.service';

/**
 * One pg pool (through TypeORM) shared by every tenant of the home cluster, and one per member
 * cluster tenants may be placed on (ClusterPools, docs/scaling.md). Schema changes only ever come
 * from `npm run migrate`: `synchronize` and `migrationsRun` stay off.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [CAIRN_CONFIG],
      useFactory: (config: CairnConfig) => ({
        type: 'postgres' as const,
        url: config.database.url,
        autoLoadEntities: true,
        synchronize: false,
        migrationsRun: false,
        logging: false,
        retryAttempts: 5,
        retryDelay: 2_000,
        extra: poolOptions(config, config.database.pooler === 'transaction'),
      }),
    }),
  ],
  providers: [ClusterPools, ControlMigrator, MemberClusterMigrator, PreparedStatements],
  exports: [ClusterPools, ControlMigrator, MemberClusterMigrator, PreparedStatements],
})
export class DatabaseModule implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly migrator: ControlMigrator,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', async () => {
      await this.dataSource.query('SELECT 1');
      return { ok: true };
    });
    // Apps never migrate on boot; they refuse traffic until the operator has migrated.
    this.readiness.register('schema', async () => {
      const current = await this.migrator.currentVersion();
      const latest = this.migrator.latestVersion;
      return current >= latest
        ? { ok: true, info: { controlVersion: current } }
        : { ok: false, detail: `control schema at version ${current} of ${latest}; run npm run migrate` };
    });
  }
}
