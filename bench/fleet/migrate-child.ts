/**
 * A `npm run migrate` that knows one more tenant migration than the product does: the fleet
 * benchmark runs it to time a real schema change over every tenant, kills it with SIGKILL
 * halfway, and runs it again to show the run resumes. Same modules, same SchemaMigrationService
 * (control schema, advisory lock, one transaction per tenant and version) as the real command;
 * only the migration list is longer. One JSON line per tenant on stdout, for the parent to count.
 */
import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import { ConfigModule, loadConfigFromProcess } from '@cairn/config';
import { DatabaseModule, type Migration } from '@cairn/db';
import { ObservabilityModule } from '@cairn/observability';
import { SchemaMigrationService, TENANT_MIGRATION_LIST, TENANT_MIGRATIONS, TenancyModule } from '@cairn/tenancy';

/**
 * A catalog change of the kind most tenant migrations are: a small table with an index and a
 * comment on an existing one. No data is rewritten, so the figure is the fixed cost per schema.
 */
export const FLEET_PROBE_MIGRATION: Migration = {
  version: TENANT_MIGRATION_LIST.length + 1,
  name: 'bench-fleet-probe',
  async up(sql) {
    await sql(`CREATE TABLE bench_fleet_probe (id bigint PRIMARY KEY, note text NOT NULL)`);
    await sql(`CREATE INDEX bench_fleet_probe_note ON bench_fleet_probe (note)`);
    await sql(`COMMENT ON TABLE memories IS 'touched by the fleet benchmark'`);
  },
};

async function main(): Promise<void> {
  const config = loadConfigFromProcess('migrate');
  const module = await Test.createTestingModule({
    imports: [ConfigModule.forRoot(config), ObservabilityModule, DatabaseModule, TenancyModule],
  })
    .overrideProvider(TENANT_MIGRATIONS)
    .useValue([...TENANT_MIGRATION_LIST, FLEET_PROBE_MIGRATION])
    .compile();
  module.useLogger(false);
  const app = await module.init();
  try {
    const write = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
    const report = await app.get(SchemaMigrationService).run({
      waiting: () => write({ waiting: true }),
      controlDone: () => write({ control: true }),
      tenantDone: (tenant) => write({ tenant: tenant.tenantId, status: tenant.status, ms: tenant.durationMs }),
    });
    write({ done: true, failed: report.failed });
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`fleet migrate child: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
