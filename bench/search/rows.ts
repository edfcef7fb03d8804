import { type SearchProvider } from '../lib/args';
/** The search benchmark's lines of the results table. */
import { type ResultRow, row } from '../lib/report';
import { type Measured } from './measure';
import { type ModeResult, type StoreResult } from './phases';
import { type SeedTimings } from './seed';

export interface SizeResult {
  readonly size: number;
  /** The embedder the run used; rows of the local model's run say so in their name. */
  readonly provider: SearchProvider;
  readonly seed: SeedTimings;
  readonly baselineLoadSeconds: number | null;
  readonly modes: ModeResult[];
  readonly store: StoreResult;
}

const BASELINE_NAMES: Record<ModeResult['mode'], string> = {
  keyword: 'SQLite FTS5 bm25',
  semantic: 'linear cosine scan, Float32',
  hybrid: 'RRF(60) of FTS5 + scan',
};

type Unit = ResultRow['unit'];
type Pick<T> = (from: T) => number;

export function sizeLabel(size: number): string {
  return size % 1000 === 0 ? `${size / 1000}k` : String(size);
}

/** Rows of one benchmark against one baseline (null when it could not run: ratio n/a). */
function rowsFor<B>(benchmark: string, baselineName: string, baseline: B | null, missing: string | null) {
  const name = missing ? 'n/a: SQLite baseline skipped (see notes)' : baselineName;
  return {
    add: (metric: string, unit: Unit, value: number, pick?: Pick<B>, suffix = ''): ResultRow =>
      pick
        ? row(benchmark, metric, unit, value, { name: `${name}${suffix}`, value: baseline ? pick(baseline) : null })
        : row(benchmark, metric, unit, value),
    latency: (label: string, m: Measured, pick: (b: B) => Measured, suffix = ''): ResultRow[] =>
      (['p50', 'p95', 'p99'] as const).map((p) =>
        row(benchmark, `${label} ${p}`, 'ms', m.latencyMs[p], {
          name: `${name}${suffix}`,
          value: baseline ? pick(baseline).latencyMs[p] : null,
        }),
      ),
  };
}

export interface RowOptions {
  /** Goes before every benchmark name (the scale benchmark's rows say `scale …`). */
  readonly group?: string;
  /** False when the vectors went in with the HNSW index dropped (built once afterwards). */
  readonly indexedWhileEmbedding?: boolean;
}

export function searchRows(result: SizeResult, missing: string | null, options: RowOptions = {}): ResultRow[] {
  const { group = '', indexedWhileEmbedding = true } = options;
  const n = `${sizeLabel(result.size)}${result.provider === 'hash' ? '' : ` ${result.provider} model`}`;
  const high = result.store.highConcurrency;
  const seq = ', sequential';
  const rows: ResultRow[] = [];
  for (const mode of result.modes) {
    type B = NonNullable<ModeResult['baseline']>;
    const r = rowsFor<B>(`${group}search ${n}: ${mode.mode}`, BASELINE_NAMES[mode.mode], mode.baseline, missing);
    rows.push(
      ...r.latency('recall c=1', mode.recall.c1, (b) => b.c1),
      r.add('recall c=1', 'queries/s', mode.recall.c1.perSecond, (b) => b.c1.perSecond),
      ...r.latency(`recall c=${high}`, mode.recall.high, (b) => b.high, seq),
      r.add(`recall c=${high}`, 'queries/s', mode.recall.high.perSecond, (b) => b.high.perSecond, seq),
      r.add('rank only c=1 p50', 'ms', mode.rankOnly.c1.latencyMs.p50, (b) => b.c1.latencyMs.p50),
      r.add(`rank only c=${high}`, 'queries/s', mode.rankOnly.high.perSecond, (b) => b.high.perSecond, seq),
    );
    if (mode.http) {
      rows.push(
        ...r.latency('HTTP c=1', mode.http.c1, (b) => b.c1),
        r.add('HTTP c=1', 'queries/s', mode.http.c1.perSecond, (b) => b.c1.perSecond),
        r.add(`HTTP c=${high} p50`, 'ms', mode.http.high.latencyMs.p50, (b) => b.high.latencyMs.p50, seq),
        r.add(`HTTP c=${high}`, 'queries/s', mode.http.high.perSecond, (b) => b.high.perSecond, seq),
      );
    }
    const q = rowsFor(`${group}search ${n}: ${mode.mode}`, BASELINE_NAMES[mode.mode], mode.quality.baseline, missing);
    rows.push(q.add('hit@10 (known answer)', '%', mode.quality.cairn.hitAt10 * 100, (b) => b.hitAt10 * 100));
    if (mode.mode === 'semantic' && mode.quality.overlapWithBaseline !== null) {
      rows.push(q.add('top-10 shared with exact scan', '%', mode.quality.overlapWithBaseline * 100));
    }
  }

  const s = rowsFor<Measured>(`${group}store ${n}`, 'SQLite insert + FTS5 + vector', result.store.baseline, missing);
  const store = result.store;
  rows.push(
    s.add('MemoryWriter.store c=1', 'memories/s', store.c1.perSecond, (b) => b.perSecond, seq),
    ...s.latency('MemoryWriter.store c=1', store.c1, (b) => b, seq),
    s.add(`MemoryWriter.store c=${high}`, 'memories/s', store.high.perSecond, (b) => b.perSecond, seq),
    ...s.latency(`MemoryWriter.store c=${high}`, store.high, (b) => b, seq),
    s.add('HTTP POST c=1', 'memories/s', store.httpC1.perSecond, (b) => b.perSecond, seq),
    s.add(`HTTP POST c=${high}`, 'memories/s', store.httpHigh.perSecond, (b) => b.perSecond, seq),
  );

  const load = result.baselineLoadSeconds;
  const d = rowsFor(`${group}seed ${n}`, 'SQLite load: rows + FTS5 + vectors', load, missing);
  rows.push(
    d.add('bulk INSERT (tsvector, GIN)', 's', result.seed.insertSeconds, (seconds) => seconds),
    d.add(
      `embed (EmbeddingProcessor, ${indexedWhileEmbedding ? 'HNSW' : 'no HNSW index'}, ${result.seed.embedConcurrency} at once)`,
      's',
      result.seed.embedSeconds,
    ),
    d.add(
      `term-statistics fold (${result.seed.foldedDeltas.toLocaleString('en-US')} deltas)`,
      's',
      result.seed.foldSeconds,
    ),
    d.add('VACUUM (ANALYZE)', 's', result.seed.vacuumAnalyzeSeconds),
  );
  return rows;
}
