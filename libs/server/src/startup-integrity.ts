import { type CairnConfig } from '@cairn/config';
import { checkIntegrity, type IntegrityReport } from '@cairn/integrity';
import { type MetricsService, type ReadinessRegistry, type ReadinessResult } from '@cairn/observability';
import { Gauge } from 'prom-client';
import { type Logger as PinoLogger } from 'pino';

const NONE = { count: 0, paths: [] };

/**
 * The start-up integrity check of one process (CAIRN_INTEGRITY): strict waits for it before the
 * app is built, warn runs it beside start-up (hashing the image's files takes seconds) and
 * reports when done. The latest report is logged once and served in /readyz (`integrity`, not
 * required: a tampered tree in warn mode shows as degraded) and as `cairn_integrity_files`.
 */
export class StartupIntegrity {
  private report: IntegrityReport;

  constructor(
    private readonly settings: CairnConfig['integrity'],
    private readonly logger: PinoLogger,
  ) {
    this.report = {
      mode: settings.mode,
      status: 'pending',
      manifest: settings.manifestPath,
      checked: 0,
      added: NONE,
      changed: NONE,
      missing: NONE,
      detail: 'integrity check running',
    };
  }

  get current(): IntegrityReport {
    return this.report;
  }

  /** Runs the check, keeps and logs its report. A failure to hash (an I/O error) is a report too. */
  async run(): Promise<IntegrityReport> {
    try {
      this.report = await checkIntegrity(this.settings);
    } catch (error) {
      this.report = {
        ...this.report,
        status: 'unreadable',
        detail: `integrity check failed: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    this.log();
    return this.report;
  }

  /** `integrity` in /readyz and `cairn_integrity_files{state}` in /metrics, from the latest report. */
  exposeThrough(readiness: ReadinessRegistry, metrics: MetricsService): void {
    readiness.register('integrity', () => Promise.resolve(this.readiness()), { required: false });
    const report = () => this.report;
    new Gauge({
      name: 'cairn_integrity_files',
      help: 'Shipped files checked at start against the build-time manifest, and those added, changed or missing',
      labelNames: ['state'],
      registers: [metrics.registry],
      collect() {
        const { checked, added, changed, missing } = report();
        this.set({ state: 'checked' }, checked);
        this.set({ state: 'added' }, added.count);
        this.set({ state: 'changed' }, changed.count);
        this.set({ state: 'missing' }, missing.count);
      },
    });
  }

  private readiness(): ReadinessResult {
    const { mode, status, checked, added, changed, missing, baseline, manifest } = this.report;
    return {
      ok: status !== 'tampered' && status !== 'unreadable',
      detail: this.report.detail,
      info: { mode, status, manifest, baseline, checked, added, changed, missing },
    };
  }

  private log(): void {
    const { status, mode, detail, checked, added, changed, missing, manifest } = this.report;
    const fields = { integrity: { mode, status, manifest, checked, added, changed, missing } };
    if (status === 'tampered' || status === 'unreadable') {
      if (mode === 'strict') this.logger.fatal(fields, `integrity check failed: ${detail}`);
      else this.logger.warn(fields, `integrity check: ${detail}`);
    } else if (status === 'no-manifest' && mode === 'strict') {
      this.logger.fatal(fields, `integrity check failed: ${detail}`);
    } else {
      this.logger.info(fields, `integrity check: ${detail}`);
    }
  }
}
