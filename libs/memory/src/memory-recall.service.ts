import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { type ProjectRef, ProjectResolver } from '@cairn/projects';
import {
  HybridSearch,
  type QueryVector,
  type Reranked,
  Reranking,
  type RelevanceReport,
  type RelevanceScores,
  RelevanceScoring,
  type SearchMode,
  type SearchReport,
  vectorSearchSettings,
} from '@cairn/search';
import {
  type ReferenceTime,
  type ResolvedWhen,
  resolveTemporal,
  searchWindow,
  type TemporalResolution,
} from '@cairn/temporal';
import { TenantContext, TenantTransaction } from '@cairn/tenancy';
import { AccessRecorder } from './access-recorder.service';
import { type TemporalReport } from './contract/memory-query.dto';
import { type MemoryFilter, type MemoryScope } from './contract/memory-filter';
import { type Viewer } from './contract/memory-viewer';
import { viewerOf } from './memory-access';
import { type Memory } from './contract/memory.types';
import { MemoriesRepository } from './memories.repository';
import { memoryRerankText } from './memory-content';
import { applyRelevance, type MinRelevance } from './recall-relevance';
import { rankByTime, type RecallExplanation } from './temporal-ranking';

export interface RecallInput {
  readonly query: string;
  readonly mode: SearchMode;
  readonly limit: number;
  readonly explain: boolean;
  readonly filter: Omit<MemoryFilter, 'scope'> & { readonly scope?: 'project' | 'tenant' | 'all' };
  /** What dates in the query are read against ("last Saturday" of when); default now, UTC. */
  readonly asOf?: ReferenceTime;
  /** Count this as use of the results (access count, confidence; written within a second). Default true; false for a peek. */
  readonly recordAccess?: boolean;
  /** Leave out results below this calibrated relevance ('default': the active model's calibrated threshold). */
  readonly minRelevance?: MinRelevance;
}

export interface RecallHit {
  readonly memory: Memory;
  readonly score: number;
  /** Calibrated 0–1, comparable across queries; absent for a query of dates only. */
  readonly relevance?: number;
  readonly explain?: RecallExplanation & { readonly relevance?: { coverage: number; cosine: number | null } };
}

export interface RecallResult {
  readonly results: RecallHit[];
  readonly report: SearchReport & { readonly temporal?: TemporalReport; readonly relevance?: RelevanceReport };
}

/** A question's dates, and the text the rankers get (none when it names nothing but dates). */
interface Temporal extends TemporalResolution {
  readonly textQuery: string | undefined;
}

/** Ranked in the transaction: deeper than the page when a reranker follows, with the memories loaded. */
interface Candidates {
  /** The text the rankers got, the reranker's query; none when only dates ranked them. */
  readonly query: string | undefined;
  readonly hits: readonly RankedHit[];
  readonly report: RecallResult['report'];
  readonly memories: ReadonlyMap<string, Memory>;
  /** Each candidate's calibrated relevance; none when only dates ranked them. */
  readonly relevance?: RelevanceScores;
}

interface RankedHit {
  readonly id: string;
  readonly score: number;
  readonly explain: RecallExplanation;
}

/** Candidates fused before re-ranking by date: deep enough that a dated match below the first page can rise. */
const datedPool = (limit: number) => Math.min(100, Math.max(30, limit * 3));

/**
 * Memory search: hybrid by default, every result flagged stale where it is. Dates in the
 * question (`@cairn/temporal`) filter by `occurred_at` in SQL when they name a clear calendar
 * range, otherwise boost memories that occurred near them after fusion (rankByTime). With a
 * reranker configured (`Reranking`), its order replaces that of the first candidates, after
 * the transaction.
 */
@Injectable()
export class MemoryRecall {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly search: HybridSearch,
    private readonly memories: MemoriesRepository,
    private readonly access: AccessRecorder,
    private readonly tenant: TenantContext,
    private readonly reranking: Reranking,
    private readonly relevance: RelevanceScoring,
  ) {}

  /** As `viewer` sees the project: others' private memories never rank (memoryScopeSql). */
  async recall(projectSlug: string, viewer: Viewer, input: RecallInput): Promise<RecallResult> {
    const temporal = readDates(input);
    // The model call comes first, outside the transaction: it holds no pooled connection.
    const queryVector = await this.embed(temporal, input.mode);
    const depth = this.depth(temporal, input.limit);
    const candidates = await this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const which = input.filter.scope ?? 'all';
      const scope = {
        projectIds: which === 'tenant' ? [] : [project.id],
        includeTenantWide: which !== 'project',
        viewer,
      };
      return this.scored(scope, input, await this.rankWithin(scope, input, temporal, queryVector, depth), queryVector);
    }, vectorSearchSettings(depth));
    // So is the reranker's, after it.
    return this.finish(candidates, input);
  }

  /** Across every project the token may read (optionally narrowed), plus tenant-wide memories. */
  async recallAcross(
    principal: SessionPrincipal,
    projects: readonly string[] | undefined,
    input: RecallInput,
  ): Promise<RecallResult & { projects: ProjectRef[] }> {
    const temporal = readDates(input);
    const queryVector = await this.embed(temporal, input.mode);
    const depth = this.depth(temporal, input.limit);
    const { candidates, chosen } = await this.tx.run(async () => {
      const allowed = await this.resolver.resolveMany(principal.projects);
      const chosen = projects ? allowed.filter((project) => projects.includes(project.slug)) : allowed;
      const scope = {
        projectIds: chosen.map((project) => project.id),
        includeTenantWide: true,
        viewer: viewerOf(principal),
      };
      const ranked = await this.rankWithin(scope, input, temporal, queryVector, depth);
      return { candidates: await this.scored(scope, input, ranked, queryVector), chosen };
    }, vectorSearchSettings(depth));
    return { ...(await this.finish(candidates, input)), projects: chosen };
  }

  /**
   * How many ranked candidates to load: the page; with dates in the question, a pool deep
   * enough that a dated match below the first page can rise; with a reranker, at least its
   * candidates.
   */
  private depth(temporal: Temporal, limit: number): number {
    const page = this.reranking.depth(limit);
    return temporal.when || temporal.order ? Math.max(datedPool(limit), page) : page;
  }

  private embed(temporal: Temporal, mode: SearchMode): Promise<QueryVector | undefined> {
    return temporal.textQuery === undefined
      ? Promise.resolve(undefined)
      : this.search.embedQuery(temporal.textQuery, mode);
  }

  private async rankWithin(
    scope: MemoryScope,
    input: RecallInput,
    temporal: Temporal,
    queryVector: QueryVector | undefined,
    depth: number,
  ): Promise<Candidates> {
    const filter: MemoryFilter = { ...input.filter, scope };
    if (!temporal.when && !temporal.order) {
      const { ranked, report } = await this.rankText(filter, input.query, input, depth, queryVector);
      const memories = new Map((await this.memories.findManyById(ranked.map((hit) => hit.id))).map((m) => [m.id, m]));
      return { query: input.query, hits: ranked, report, memories };
    }
    const notes: string[] = [];
    let when = temporal.when?.anchor ? await this.placeAnchor(filter, temporal.when, notes) : temporal.when;
    const candidates = async (range: ResolvedWhen['range'] | undefined) => {
      const within: MemoryFilter = {
        ...filter,
        ...(range && { occurredFrom: range.from ?? undefined, occurredBefore: range.to ?? undefined }),
      };
      // "What did I do last Saturday?": nothing but dates to rank by, so no text ranking at all.
      const text =
        temporal.textQuery === undefined || (temporal.contentless && when?.range)
          ? undefined
          : await this.rankText(within, temporal.textQuery, input, depth, queryVector);
      const dated = when?.range
        ? await this.memories.datedCandidates(within, range ?? searchWindow(when.range), when.range, depth)
        : [];
      return { text, dated };
    };
    let found = await candidates(when?.use === 'filter' ? when.range : undefined);
    if (when?.use === 'filter' && (found.text?.ranked.length ?? 0) === 0 && found.dated.length === 0) {
      notes.push(`no memory occurred in ${when.expression}: applied it as a boost instead of a filter`);
      when = { ...when, use: 'boost', weight: 0.6 };
      found = await candidates(undefined);
    }
    const report = found.text?.report ?? {
      requestedMode: input.mode,
      mode: input.mode,
      notes: ['the query names only dates: ranked by when memories occurred'],
      embeddingModel: null,
    };
    const ranked = found.text?.ranked ?? [];
    const byId = new Map(
      (await this.memories.findManyById([...new Set([...ranked.map((h) => h.id), ...found.dated])])).map((m) => [
        m.id,
        m,
      ]),
    );
    const hits = rankByTime(ranked, found.dated, byId, when, temporal.order, new Date()).slice(0, depth);
    return {
      query: found.text ? temporal.textQuery : undefined,
      hits,
      report: { ...report, temporal: temporalReport(temporal, when, notes) },
      memories: byId,
    };
  }

  /** The candidates with their calibrated relevance, read in the ranking's transaction over the same filter. */
  private async scored(
    scope: MemoryScope,
    input: RecallInput,
    candidates: Candidates,
    queryVector: QueryVector | undefined,
  ): Promise<Candidates> {
    if (candidates.query === undefined) return candidates;
    const { corpus, params } = this.memories.rankingCorpus({ ...input.filter, scope });
    const ids = candidates.hits.map((hit) => hit.id);
    const relevance = await this.relevance.score(corpus, params, { query: candidates.query, queryVector, ids });
    return { ...candidates, relevance };
  }

  private rankText(
    filter: MemoryFilter,
    query: string,
    input: RecallInput,
    limit: number,
    queryVector: QueryVector | undefined,
  ) {
    const { corpus, params } = this.memories.rankingCorpus(filter);
    return this.search.rank(corpus, params, { query, mode: input.mode, limit, queryVector });
  }

  /**
   * "Two weeks before the trip": the trip is the memory that best matches it by keyword; the
   * window is centred on its occurredAt plus the offset. Unplaced, the dates are left out.
   */
  private async placeAnchor(
    filter: MemoryFilter,
    when: ResolvedWhen,
    notes: string[],
  ): Promise<ResolvedWhen | undefined> {
    const anchor = when.anchor!;
    const { corpus, params } = this.memories.rankingCorpus(filter);
    const { ranked } = await this.search.rank(corpus, params, { query: anchor.event, mode: 'keyword', limit: 1 });
    const [event] = ranked[0] ? await this.memories.findManyById([ranked[0].id]) : [];
    if (!event) {
      notes.push(`could not place "${anchor.event}": no memory mentions it`);
      return undefined;
    }
    const centre = event.occurredAt.getTime() + anchor.offsetMs;
    notes.push(`placed "${anchor.event}" at ${event.occurredAt.toISOString()} (memory ${event.id})`);
    return {
      ...when,
      range: { from: new Date(centre - anchor.halfWidthMs), to: new Date(centre + anchor.halfWidthMs) },
    };
  }

  /**
   * The page: the candidates in the reranker's order when one is configured and the rankers
   * had words to go by (a question of dates alone keeps its order by date).
   */
  private async finish(candidates: Candidates, input: RecallInput): Promise<RecallResult> {
    const { memories, query } = candidates;
    const reranked: Reranked<RankedHit> =
      query === undefined
        ? { ranked: [...candidates.hits], notes: [] }
        : await this.reranking.rerank(query, candidates.hits, (hit) => {
            const memory = memories.get(hit.id);
            return memory && memoryRerankText(memory.content, memory.keywords);
          });
    const relevant = applyRelevance(reranked.ranked, candidates.relevance, input.minRelevance);
    const page = relevant.kept.slice(0, input.limit);
    const report: RecallResult['report'] = {
      ...candidates.report,
      notes: [...candidates.report.notes, ...reranked.notes],
      ...(reranked.report && { rerank: reranked.report }),
      ...(relevant.report && { relevance: relevant.report }),
    };
    const ids = page.map((hit) => hit.id);
    if (input.recordAccess !== false) this.access.record(this.tenant.require('MemoryRecall'), ids);
    const results = page.flatMap((hit): RecallHit[] => {
      const memory = memories.get(hit.id);
      if (!memory) return [];
      const scored = candidates.relevance?.byId.get(hit.id);
      const explain = scored
        ? { ...hit.explain, relevance: { coverage: scored.coverage, cosine: scored.cosine } }
        : hit.explain;
      return [
        {
          memory,
          score: hit.score,
          ...(scored && { relevance: scored.relevance }),
          ...(input.explain ? { explain } : {}),
        },
      ];
    });
    return { results, report };
  }
}

function readDates(input: RecallInput): Temporal {
  const resolution = resolveTemporal(input.query, input.asOf ?? { instant: new Date(), offsetMinutes: 0 });
  const { when, contentless, withoutDates } = resolution;
  // The rankers get the whole question: its date words are content too ("the Wednesday class",
  // "my February trip", and statements say "last weekend" as questions do); measured on
  // LongMemEval, ranking the question with its dates stripped lost 1.4 points of recall@10
  // (docs/retrieval.md). Two exceptions. "Two weeks before the trip" names another event, placed
  // by its own search: ranked with the question, the trip itself would come first. A question
  // that is nothing but dates ranks by date alone, unless it is an event to place ("3 days after
  // the launch"), whose words are then the text to rank.
  let textQuery: string | undefined = input.query;
  if (contentless) textQuery = when?.anchor ? input.query : undefined;
  else if (when?.anchor) textQuery = withoutDates;
  return { ...resolution, textQuery };
}

function temporalReport(temporal: Temporal, when: ResolvedWhen | undefined, notes: string[]): TemporalReport {
  const found = temporal.when;
  return {
    reference: temporal.reference.instant.toISOString(),
    rankedQuery: temporal.textQuery ?? '',
    ...(found && {
      range: {
        expression: found.expression,
        kind: found.kind,
        from: when?.range?.from?.toISOString() ?? null,
        to: when?.range?.to?.toISOString() ?? null,
        applied: when?.range ? when.use : 'none',
        weight: when?.range ? when.weight : 0,
      },
    }),
    ...(temporal.order && { order: { expression: temporal.order.expression, direction: temporal.order.direction } }),
    notes,
  };
}
