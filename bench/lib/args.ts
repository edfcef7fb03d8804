/** Command-line parameters of `npm run bench`; everything has a default sized for a 2-core machine. */
export interface BenchOptions {
  /** Tenants created through the API (and as many baseline schemas). */
  readonly tenants: number;
  /** Measured duration of each throughput phase. */
  readonly seconds: number;
  /** Unmeasured lead-in of each throughput phase. */
  readonly warmupSeconds: number;
  /** Requests kept in flight during throughput phases. */
  readonly concurrency: number;
}

export const USAGE = `usage: npm run bench -- [--tenants N] [--seconds S] [--warmup S] [--concurrency C]
  --tenants N       tenants to provision, and baseline schemas to create (default 100)
  --seconds S       measured seconds per throughput phase (default 3)
  --warmup S        unmeasured warm-up seconds per throughput phase (default 0.5)
  --concurrency C   requests in flight during throughput phases (default 16)`;

export class UsageError extends Error {}

const DEFAULTS: BenchOptions = { tenants: 100, seconds: 3, warmupSeconds: 0.5, concurrency: 16 };

const FLAGS: Record<string, { key: keyof BenchOptions; integer: boolean; min: number; max: number }> = {
  '--tenants': { key: 'tenants', integer: true, min: 1, max: 100_000 },
  '--seconds': { key: 'seconds', integer: false, min: 0.1, max: 3_600 },
  '--warmup': { key: 'warmupSeconds', integer: false, min: 0, max: 600 },
  '--concurrency': { key: 'concurrency', integer: true, min: 1, max: 1_024 },
};

/** Accepts `--flag value` and `--flag=value`; anything else is a usage error. */
export function parseArgs(argv: readonly string[]): BenchOptions | 'help' {
  const options: Record<keyof BenchOptions, number> = { ...DEFAULTS };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return 'help';
    const [flag = '', inline] = arg.split('=', 2);
    const spec = FLAGS[flag];
    if (!spec) throw new UsageError(`unknown argument "${arg}"`);
    const raw = inline ?? argv[++i];
    if (raw === undefined) throw new UsageError(`${flag} needs a value`);
    const value = Number(raw);
    if (!Number.isFinite(value) || (spec.integer && !Number.isInteger(value)) || value < spec.min || value > spec.max) {
      throw new UsageError(
        `${flag} must be ${spec.integer ? 'an integer' : 'a number'} between ${spec.min} and ${spec.max}`,
      );
    }
    options[spec.key] = value;
  }
  return options;
}
