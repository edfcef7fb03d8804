import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { ReadinessRegistry } from '@cairn/observability';
import { type DataSource } from 'typeorm';
import { ControlMigrator } from './control-migrator.service';
import { PreparedStatements } from './prepared-statements.service';

/**
 * The timeouts travel in the startup packet, which PgBouncer 1.18 refuses ("unsupported startup
 * parameter") unless told to ignore them, and behind a transaction pooler they would set nothing
 * for the server connections it shares anyway: there the operator sets them on the database role
 * (`ALTER ROLE … SET statement_timeout`), which every server connection the pooler opens carries.
 */
function sessionTimeouts(config: CairnConfig): Record<string, number> {
  if (config.database.pooler === 'transaction') return {};
  return {
    statement_timeout: config.database.statementTimeoutMs,
    idle_in_transaction_session_timeout: config.database.statementTimeoutMs * 2,
  };
}

/**
 * One pg pool (through TypeORM) shared by every tenant. Schema changes only ever come
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
        extra: {
          max: config.database.poolMax,
          application_name: `cairn-${config.app}`,
          ...sessionTimeouts(config),
          connectionTimeoutMillis: 10_000,
        },
      }),
    }),
  ],
  providers: [ControlMigrator, PreparedStatements],
  exports: [ControlMigrator, PreparedStatements],
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
