import { type CairnConfig } from '@cairn/config';
import { type RewriteOutcome, rewriteOutcomeOf } from '@cairn/search';

/** The rewrite model an evaluation's `<mode>+rewrite` rows went through, as the app was configured. */
export interface RewriterSetup {
  /** The server's origin only: a URL may carry credentials, results files are shared. */
  readonly server: string;
  readonly provider: 'ollama' | 'openai';
  readonly model: string;
  /** QUERY_REWRITE_TIMEOUT_MS. */
  readonly timeoutMs: number;
}

/** What the rewrite did over one mode's questions, read from each recall's notes. */
export interface RewriteStats {
  /** Questions whose recall asked for a rewrite (one naming nothing but dates does not). */
  readonly asked: number;
  /** Questions ranked with the model's sub-queries. */
  readonly fromModel: number;
  /** Questions that kept the model-free parts, by why: late, failed, or nothing usable. */
  readonly fellBack: { readonly timeout: number; readonly error: number; readonly empty: number };
}

export function rewriterSetup(config: CairnConfig): RewriterSetup | undefined {
  const { provider, model } = config.chat;
  if (!config.queryRewrite.enabled || provider === 'none' || !model) return undefined;
  const url = provider === 'ollama' ? config.providers.ollama.url : (config.providers.openai.baseUrl ?? '');
  return { server: new URL(url).origin, provider, model, timeoutMs: config.queryRewrite.timeoutMs };
}

/** Each recall's notes (one list per question), summed up. */
export function rewriteStats(notes: readonly (readonly string[])[]): RewriteStats {
  const outcomes = notes.map((list) => rewriteOutcomeOf(list)).filter((o): o is RewriteOutcome => o !== undefined);
  const count = (outcome: RewriteOutcome) => outcomes.filter((o) => o === outcome).length;
  return {
    asked: outcomes.length,
    fromModel: count('ok'),
    fellBack: { timeout: count('timeout'), error: count('error'), empty: count('empty') },
  };
}

/** One line per rewritten mode, for the printed run. */
export function formatRewriteStats(name: string, setup: RewriterSetup, stats: RewriteStats): string {
  const { timeout, error, empty } = stats.fellBack;
  return (
    `${name}: ${stats.asked} questions to ${setup.model} (${setup.provider} at ${setup.server}), ` +
    `${stats.fromModel} ranked with its sub-queries; ${timeout + error + empty} fell back to the model-free parts ` +
    `(${timeout} late past ${setup.timeoutMs} ms, ${error} failed, ${empty} nothing usable)`
  );
}
