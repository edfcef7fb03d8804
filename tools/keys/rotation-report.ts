import { type MasterKeyRotationReport, type RotationListener, type TenantRotationReport } from '@cairn/encryption';

/** Prints `npm run keys:rotate`'s per-tenant lines as aligned plain text. */
export function consoleRotationListener(write: (line: string) => void): RotationListener {
  return {
    waiting: () => write('another key rotation holds the lock; waiting for it to finish…'),
    tenantDone: (report) => write(formatTenantLine(report)),
  };
}

export function formatTenantLine(report: TenantRotationReport): string {
  const name = `${report.slug}${report.deleted ? ' (deleted)' : ''}`;
  const keys = `${report.keys} key${report.keys === 1 ? '' : 's'}`;
  const outcome =
    report.status === 'failed'
      ? `FAILED: ${report.error ?? 'unknown error'}`
      : report.status === 'rotated'
        ? `rotated ${report.rewrapped}${report.alreadyCurrent > 0 ? `, ${report.alreadyCurrent} already current` : ''}`
        : 'up to date';
  return `  ${name.padEnd(40)} ${report.tenantId}  ${keys.padEnd(8)} ${outcome} (${report.durationMs} ms)`;
}

export function formatSummary(report: MasterKeyRotationReport, elapsedMs: number): string[] {
  const count = (status: TenantRotationReport['status']) => report.tenants.filter((t) => t.status === status).length;
  const lines = [
    `tenants: ${report.tenants.length} total, ${count('rotated')} rotated, ${count('up-to-date')} up to date, ` +
      `${report.failed} failed; ${report.rewrapped} data keys re-wrapped (${(elapsedMs / 1000).toFixed(2)} s)`,
  ];
  lines.push(
    report.remaining === 0
      ? `every data key is wrapped by CAIRN_MASTER_KEY (${report.masterKeyId}): CAIRN_MASTER_KEY_PREVIOUS can be removed`
      : `${report.remaining} data keys are still wrapped by another master key: set CAIRN_MASTER_KEY_PREVIOUS to the key that wraps them and run again`,
  );
  return lines;
}
