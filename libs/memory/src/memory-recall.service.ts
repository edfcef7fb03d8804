import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { type ProjectRef, ProjectResolver } from '@cairn/projects';
import {
  type DatedOutcome,
  HybridSearch,
  type QueryVector,
  type Reranked,
  Reranking,
  type RelevanceReport,
  type RelevanceScores,
  type SearchMode,
  type SearchReport,
  vectorSearchSettings,
} from '@cairn/search';
import { type ReferenceTime, type ResolvedWhen, resolveTemporal, type TemporalResolution } from '@cairn/temporal';
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

/** A date filter that finds nothing is applied as a boost of this weight instead. */
const RELAXED_FILTER_WEIGHT = 0.6;

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
      return this.rankWithin(scope, input, temporal, queryVector, depth);
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
      return { candidates: await this.rankWithin(scope, input, temporal, queryVector, depth), chosen };
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
      : this.search.embedQuery(temporal.textQuery, mode, { parts: true });
  }

  /**
   * One call into search: a plain question is ranked as text; one with dates (or an ordering
   * cue) goes to HybridSearch.rankDated, which places an anchor, filters or boosts by the range
   * and relaxes a filter that finds nothing, all within that call, which also scores each
   * candidate's calibrated relevance. What the dates then do to the order (rankByTime), the
   * relevance threshold and what the report says are recall's.
   */
  private async rankWithin(
    scope: MemoryScope,
    input: RecallInput,
    temporal: Temporal,
    queryVector: QueryVector | undefined,
    depth: number,
  ): Promise<Candidates> {
    const corpus = this.memories.rankable({ ...input.filter, scope });
    const request = { mode: input.mode, limit: depth, queryVector, relevance: true };
    if (!temporal.when && !temporal.order) {
      const { ranked, report, relevance } = await this.search.rank(corpus, { ...request, query: input.query });
      const memories = new Map((await this.memories.findManyById(ranked.map((hit) => hit.id))).map((m) => [m.id, m]));
      return { query: input.query, hits: ranked, report, memories, relevance };
    }
    const outcome = await this.search.rankDated(corpus, {
      ...request,
      query: temporal.textQuery,
      dates: { when: temporal.when, contentless: temporal.contentless, relaxedWeight: RELAXED_FILTER_WEIGHT },
    });
    const { when, text, dated } = outcome;
    const report = text?.report ?? {
      requestedMode: input.mode,
      mode: input.mode,
      notes: ['the query names only dates: ranked by when memories occurred'],
      embeddingModel: null,
    };
    const ranked = text?.ranked ?? [];
    const byId = new Map(
      (await this.memories.findManyById([...new Set([...ranked.map((h) => h.id), ...dated])])).map((m) => [m.id, m]),
    );
    const hits = rankByTime(ranked, dated, byId, when, temporal.order, new Date()).slice(0, depth);
    return {
      query: text ? temporal.textQuery : undefined,
      hits,
      report: { ...report, temporal: temporalReport(temporal, when, datedNotes(temporal, outcome)) },
      memories: byId,
      relevance: outcome.relevance,
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

/** What happened to the question's dates, in the order it happened: the anchor placed or not, a filter relaxed. */
function datedNotes(temporal: Temporal, outcome: DatedOutcome): string[] {
  const notes: string[] = [];
  const event = temporal.when?.anchor?.event;
  if (event !== undefined && outcome.anchor === null) notes.push(`could not place "${event}": no memory mentions it`);
  if (event !== undefined && outcome.anchor) {
    const { id, occurredAt } = outcome.anchor;
    notes.push(`placed "${event}" at ${occurredAt.toISOString()} (memory ${id})`);
  }
  if (outcome.relaxed && outcome.when) {
    notes.push(`no memory occurred in ${outcome.when.expression}: applied it as a boost instead of a filter`);
  }
  return notes;
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
