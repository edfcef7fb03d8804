import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** One line of the results table; `ratio` is always value / baseline. */
export interface ResultRow {
  readonly benchmark: string;
  readonly metric: string;
  /** `score`: a unitless measure shown with three decimals (a Brier score, an error rate). */
  readonly unit: 'ms' | 'req/s' | 'calls/s' | 'queries/s' | 'memories/s' | 's' | '%' | 'chars' | 'score' | 'MiB';
  readonly value: number;
  readonly baseline: number | null;
  readonly baselineName: string | null;
  readonly ratio: number | null;
}

export function row(
  benchmark: string,
  metric: string,
  unit: ResultRow['unit'],
  value: number,
  /** `value: null` when the baseline could not be measured in this run (the ratio shows n/a). */
  baseline?: { name: string; value: number | null },
): ResultRow {
  const ratio =
    baseline &&
    baseline.value !== null &&
    baseline.value > 0 &&
    Number.isFinite(baseline.value) &&
    Number.isFinite(value)
      ? value / baseline.value
      : null;
  return {
    benchmark,
    metric,
    unit,
    value,
    baseline: baseline?.value ?? null,
    baselineName: baseline?.name ?? null,
    ratio,
  };
}

function formatValue(value: number | null, unit: ResultRow['unit']): string {
  if (value === null || !Number.isFinite(value)) return '-';
  if (unit === 'ms') return `${value.toFixed(value < 10 ? 3 : 1)} ms`;
  if (unit === '%' || unit === 's') return `${value.toFixed(1)} ${unit}`;
  if (unit === 'score') return value.toFixed(3);
  if (unit === 'MiB') return `${value.toFixed(value < 10 ? 2 : 1)} MiB`;
  if ((unit === 'queries/s' || unit === 'memories/s') && value < 100) return `${value.toFixed(1)} ${unit}`;
  return `${Math.round(value).toLocaleString('en-US')} ${unit}`;
}

/** Two decimals; small ratios keep two significant digits instead of reading 0.00x. */
function formatRatio(ratio: number): string {
  return `${ratio !== 0 && Math.abs(ratio) < 0.1 ? ratio.toPrecision(2) : ratio.toFixed(2)}x`;
}

const HEADERS = ['benchmark', 'metric', 'value', 'baseline', 'ratio', 'baseline is'] as const;
const RIGHT_ALIGNED = new Set([2, 3, 4]);

/** A plain aligned text table; numbers are right-aligned. */
export function renderTable(rows: readonly ResultRow[]): string {
  const cells = rows.map((r) => [
    r.benchmark,
    r.metric,
    formatValue(r.value, r.unit),
    formatValue(r.baseline, r.unit),
    r.ratio !== null ? formatRatio(r.ratio) : r.baselineName !== null && r.baseline === null ? 'n/a' : '-',
    r.baselineName ?? '',
  ]);
  const widths = HEADERS.map((header, i) => Math.max(header.length, ...cells.map((line) => line[i]?.length ?? 0)));
  const format = (line: readonly string[]) =>
    line
      .map((cell, i) => (RIGHT_ALIGNED.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const separator = widths.map((width) => '-'.repeat(width)).join('  ');
  const lines = [format(HEADERS), separator];
  let previous: string | undefined;
  for (const [index, line] of cells.entries()) {
    const benchmark = rows[index]?.benchmark;
    if (previous !== undefined && benchmark !== previous) lines.push('');
    lines.push(format(previous === benchmark ? ['', ...line.slice(1)] : line));
    previous = benchmark;
  }
  return lines.join('\n');
}

export function machineInfo() {
  const cpuList = cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: platform(),
    osRelease: release(),
    arch: arch(),
    cpuCount: cpuList.length,
    cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
    totalMemoryMiB: Math.round(totalmem() / 1024 / 1024),
    loadAverageAtEnd: loadavg(),
  };
}

export function gitCommit(cwd: string): string | null {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    return commit.toString().trim() || null;
  } catch {
    return null;
  }
}

/** The directory holding package.json, found upwards from `start` (works from bench/ and dist/bench/). */
export function repositoryRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

/** Writes `<ISO timestamp>.json` and `latest.json` under bench/results; returns both paths, relative to root. */
export function writeResults(root: string, timestamp: string, payload: unknown): { file: string; latest: string } {
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const text = `${JSON.stringify(payload, null, 2)}\n`;
  const file = join(dir, `${timestamp.replace(/:/g, '-')}.json`);
  const latest = join(dir, 'latest.json');
  writeFileSync(file, text);
  writeFileSync(latest, text);
  return { file: relative(root, file), latest: relative(root, latest) };
}
