import { type CairnConfig } from '@cairn/config';
import { type RerankReport } from '@cairn/search';
import { percentile } from '../lib/stats';

/** The reranker an evaluation's reranked rows went through, as the app was configured. */
export interface RerankerSetup {
  /** The server's origin only: a URL may carry credentials, results files are shared. */
  readonly server: string;
  readonly api: CairnConfig['rerank']['api'];
  readonly model: string;
  /** RERANK_CANDIDATES: fused results sent at most. */
  readonly candidates: number;
  readonly batchSize: number;
  readonly timeoutMs: number;
}

/** What the reranker did over one mode's questions. */
export interface RerankStats {
  /** Questions whose recall called the reranker (one naming nothing but dates does not). */
  readonly calls: number;
  /** Calls whose answer was applied. */
  readonly applied: number;
  /** Calls late or failing: those questions kept the fused order. */
  readonly fellBack: number;
  /** Candidates sent per call, on average. */
  readonly meanCandidates: number;
  /** How long each call's search waited for the reranker, per question, in milliseconds. */
  readonly latencyMs: { readonly p50: number; readonly p95: number; readonly max: number };
}

export function rerankerSetup(config: CairnConfig): RerankerSetup | undefined {
  const { url, api, model, candidates, batchSize, timeoutMs } = config.rerank;
  if (!url || !model) return undefined;
  return { server: new URL(url).origin, api, model, candidates, batchSize, timeoutMs };
}

/** The reports of one mode's recalls (undefined where no reranker was called), summed up. */
export function rerankStats(reports: readonly (RerankReport | undefined)[]): RerankStats {
  const called = reports.filter((report): report is RerankReport => report !== undefined);
  const sorted = called.map((report) => report.ms).sort((a, b) => a - b);
  const applied = called.filter((report) => report.applied).length;
  const sent = called.reduce((sum, report) => sum + report.candidates, 0);
  return {
    calls: called.length,
    applied,
    fellBack: called.length - applied,
    meanCandidates: called.length > 0 ? sent / called.length : 0,
    latencyMs: {
      p50: sorted.length > 0 ? percentile(sorted, 50) : 0,
      p95: sorted.length > 0 ? percentile(sorted, 95) : 0,
      max: sorted[sorted.length - 1] ?? 0,
    },
  };
}

/** One line per reranked mode, for the printed run. */
export function formatRerankStats(name: string, setup: RerankerSetup, stats: RerankStats): string {
  return (
    `${name}: ${stats.calls} calls to ${setup.model} (${setup.api} API at ${setup.server}), ` +
    `${stats.meanCandidates.toFixed(0)} candidates each on average (RERANK_CANDIDATES ${setup.candidates}, ` +
    `batches of ${setup.batchSize}); ${stats.fellBack} fell back to the fused order ` +
    `(late past ${setup.timeoutMs} ms or failed); rerank wait p50 ${stats.latencyMs.p50} ms, ` +
    `p95 ${stats.latencyMs.p95} ms, max ${stats.latencyMs.max} ms`
  );
}
