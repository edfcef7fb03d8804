import {
  type KeyRotationOutcome,
  type MasterKeyRotationReport,
  PLATFORM_SCOPE,
  type RotationListener,
  type TenantRotationReport,
} from '@cairn/encryption';

/** Prints `npm run keys:rotate`'s per-tenant lines as aligned plain text. */
export function consoleRotationListener(write: (line: string) => void): RotationListener {
  return {
    waiting: () => write('another key rotation holds the lock; waiting for it to finish…'),
    tenantDone: (report) => write(formatTenantLine(report)),
    platformDone: (report) => write(formatLine('(platform: no tenant)', PLATFORM_SCOPE, report)),
  };
}

export function formatTenantLine(report: TenantRotationReport): string {
  return formatLine(`${report.slug}${report.deleted ? ' (deleted)' : ''}`, report.tenantId, report);
}

function formatLine(name: string, id: string, report: KeyRotationOutcome): string {
  const keys = `${report.keys} key${report.keys === 1 ? '' : 's'}`;
  const outcome =
    report.status === 'failed'
      ? `FAILED: ${report.error ?? 'unknown error'}`
      : report.status === 'rotated'
        ? `rotated ${report.rewrapped}${report.alreadyCurrent > 0 ? `, ${report.alreadyCurrent} already current` : ''}`
        : 'up to date';
  return `  ${name.padEnd(40)} ${id}  ${keys.padEnd(8)} ${outcome} (${report.durationMs} ms)`;
}

export function formatSummary(report: MasterKeyRotationReport, elapsedMs: number): string[] {
  const count = (status: TenantRotationReport['status']) => report.tenants.filter((t) => t.status === status).length;
  const lines = [
    `tenants: ${report.tenants.length} total, ${count('rotated')} rotated, ${count('up-to-date')} up to date, ` +
      `${count('failed')} failed; ${report.rewrapped} data keys re-wrapped (${(elapsedMs / 1000).toFixed(2)} s)`,
  ];
  lines.push(
    report.remaining === 0
      ? `every data key is wrapped by CAIRN_MASTER_KEY (${report.masterKeyId}): CAIRN_MASTER_KEY_PREVIOUS can be removed`
      : `${report.remaining} data keys are still wrapped by another master key: set CAIRN_MASTER_KEY_PREVIOUS to the key that wraps them and run again`,
  );
  return lines;
}
