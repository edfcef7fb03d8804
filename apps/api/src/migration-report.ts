import { type MigrationListener, type MigrationRunReport, type TenantMigrationReport } from '@cairn/tenancy';

/** Prints the per-tenant report of `npm run migrate` as aligned plain text. */
export function consoleMigrationListener(write: (line: string) => void): MigrationListener {
  return {
    waiting: () => write('another migration run holds the lock; waiting for it to finish…'),
    controlDone: (control) => {
      const applied = control.applied.map((m) => `${m.version} ${m.name} (${m.durationMs} ms)`).join(', ');
      write(
        control.applied.length === 0
          ? `control schema: up to date at v${control.toVersion}`
          : `control schema: v${control.fromVersion} → v${control.toVersion}: ${applied}`,
      );
    },
    tenantDone: (report) => write(formatTenantLine(report)),
  };
}

export function formatTenantLine(report: TenantMigrationReport): string {
  const versions = `v${report.fromVersion} → v${report.toVersion}`;
  const outcome =
    report.status === 'failed' ? `FAILED at v${report.error?.version}: ${report.error?.message}` : report.status;
  // The cluster only when placement put the tenant somewhere other than home (docs/scaling.md).
  const where = report.cluster === 'home' ? '' : ` [${report.cluster}]`;
  return `  ${report.slug.padEnd(40)} ${report.schema.padEnd(28)} ${versions.padEnd(12)} ${outcome} (${report.durationMs} ms)${where}`;
}

export function formatSummary(report: MigrationRunReport, elapsedMs: number): string {
  const count = (status: TenantMigrationReport['status']) => report.tenants.filter((t) => t.status === status).length;
  return (
    `tenants: ${report.tenants.length} total, ${count('migrated')} migrated, ` +
    `${count('up-to-date')} up to date, ${report.failed} failed (${(elapsedMs / 1000).toFixed(2)} s)`
  );
}
