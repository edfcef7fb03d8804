import { type TenantMoveReport } from '@cairn/tenancy';

/** The operator's lines for a finished move. */
export function formatMoveReport(report: TenantMoveReport): string[] {
  const rows = report.tables.reduce((sum, table) => sum + table.rows, 0);
  const steps = Object.entries(report.steps).map(([name, count]) => `${name} ${count}`);
  return [
    `moved ${report.slug} (${report.schema}) from ${report.from} to ${report.to}`,
    `  ${report.tables.length} tables, ${rows} rows, every count and digest verified on both sides`,
    ...(steps.length > 0 ? [`  carried: ${steps.join(', ')}`] : []),
    `  writes frozen for ${report.frozenMs} ms`,
    `  old copy kept on ${report.from} as ${report.retiredAs}: drop it with DROP SCHEMA "${report.retiredAs}" CASCADE once checked`,
  ];
}
