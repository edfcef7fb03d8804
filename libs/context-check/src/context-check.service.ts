import { Injectable } from '@nestjs/common';
import { roleGrants, type SessionPrincipal } from '@cairn/access';
import { CairnError } from '@cairn/common';
import { CodeQueries, type CodeSearchResult } from '@cairn/code-index';
import { KbSearchService } from '@cairn/knowledge';
import { MemoryRecall, viewerOf } from '@cairn/memory';
import { confidenceOf, levelOf, LOW_CONFIDENCE } from './confidence';
import { coverageOf, termsOf } from './evidence-terms';
import {
  type ConfidenceSignals,
  type ContextCheckResult,
  type Evidence,
  type ReadNext,
} from './contract/context-check.types';

/** Candidates read from each source; the answer shows the best `limit` of them all. */
const PER_SOURCE = 8;
const SNIPPET_CHARS = 600;
/** A source "agrees" when its best piece covers at least this share of the question. */
const AGREEING_COVERAGE = 0.5;
const SOURCES = 3;

/**
 * context_check (issue 25): one question against memories, the knowledge base and the code
 * index together; the evidence ranked by how much of the question it covers, a calibrated
 * confidence (./confidence.ts), and, when that is low, what to read next. Each source is asked
 * through its own library's search, with the caller's visibility; a source that cannot answer
 * (no code index yet, no permission) is named in a note rather than failing the check.
 */
@Injectable()
export class ContextCheck {
  constructor(
    private readonly memories: MemoryRecall,
    private readonly knowledge: KbSearchService,
    private readonly code: CodeQueries,
  ) {}

  async check(
    projectSlug: string,
    principal: SessionPrincipal,
    input: { question: string; limit: number },
  ): Promise<ContextCheckResult> {
    const question = termsOf(input.question);
    const notes: string[] = [];
    const query = input.question;
    const [memoryHits, kbHits, code] = await Promise.all([
      this.memories
        .recall(projectSlug, viewerOf(principal), {
          query,
          mode: 'hybrid',
          limit: PER_SOURCE,
          explain: false,
          filter: {},
          recordAccess: false,
        })
        .then((result) => result.results),
      roleGrants(principal.role, 'kb.read')
        ? this.knowledge
            .search(projectSlug, principal, { query, mode: 'hybrid', limit: PER_SOURCE })
            .then((result) => result.results)
        : Promise.resolve([]),
      this.code.search(projectSlug, principal, { query, mode: 'hybrid', limit: PER_SOURCE }).catch((error: unknown) => {
        if (error instanceof CairnError && error.code === 'not_indexed') {
          notes.push('This project has no code index: run `cairn index` in its repository to include code.');
          return undefined;
        }
        throw error;
      }),
    ]);

    const evidence = interleave([
      memoryHits.map((hit) =>
        piece(question, {
          source: 'memory',
          ref: `memory:${hit.memory.id}`,
          title: hit.memory.category,
          text: hit.memory.content,
          score: hit.score,
        }),
      ),
      kbHits.map((hit) =>
        piece(question, {
          source: 'knowledge',
          ref: hit.source,
          title: hit.title,
          text: hit.text,
          score: hit.score,
        }),
      ),
      ...codeEvidence(question, code),
    ]);

    const best = evidence[0];
    const bestOf = (source: Evidence['source'][]) =>
      Math.max(0, ...evidence.filter((item) => source.includes(item.source)).map((item) => item.coverage));
    const signals: ConfidenceSignals = {
      coverage: best?.coverage ?? 0,
      agreement:
        [bestOf(['memory']), bestOf(['knowledge']), bestOf(['code', 'symbol'])].filter((c) => c >= AGREEING_COVERAGE)
          .length / SOURCES,
      symbol: code?.symbols.some((hit) => hit.score === 1) ? 1 : 0,
      margin: marginOf(evidence),
    };
    const confidence = evidence.length === 0 ? 0 : confidenceOf(signals);
    return {
      confidence: Math.round(confidence * 1000) / 1000,
      level: levelOf(confidence),
      evidence: evidence.slice(0, input.limit),
      readNext: confidence < LOW_CONFIDENCE ? readNextOf(evidence, code) : [],
      signals,
      notes,
    };
  }
}

function piece(question: ReadonlySet<string>, item: Omit<Evidence, 'coverage'>): Evidence {
  const coverage = coverageOf(question, termsOf(`${item.ref} ${item.title ?? ''} ${item.text}`));
  return { ...item, text: clip(item.text), coverage: Math.round(coverage * 1000) / 1000 };
}

/**
 * One list over the sources: the piece covering more of the question first, and between equals
 * the one its source ranked higher. (Ordered by the sources' ranks first, the top piece was one of
 * the files a commit changed less often on the labelled set: docs/context-check.md.)
 */
function interleave(lists: readonly (readonly Evidence[])[]): Evidence[] {
  const ranked = lists.flatMap((list) => list.map((item, rank) => ({ item, rank })));
  return ranked.sort((a, b) => b.item.coverage - a.item.coverage || a.rank - b.rank).map(({ item }) => item);
}

/** How far the best piece stands out: its coverage less that of the best piece from elsewhere. */
function marginOf(evidence: readonly Evidence[]): number {
  const [best, ...rest] = evidence;
  if (!best) return 0;
  const where = (item: Evidence) => item.ref.split(':')[0];
  const runnerUp = Math.max(0, ...rest.filter((item) => where(item) !== where(best)).map((item) => item.coverage));
  return Math.round(Math.max(0, best.coverage - runnerUp) * 1000) / 1000;
}

function codeEvidence(question: ReadonlySet<string>, code: CodeSearchResult | undefined): Evidence[][] {
  if (!code) return [];
  const symbols = code.symbols.map((hit) =>
    piece(question, {
      source: 'symbol',
      ref: `${hit.path}:${hit.startLine}-${hit.endLine}`,
      title: `${hit.kind} ${hit.name}`,
      text: hit.signature,
      score: hit.score,
    }),
  );
  const passages = code.passages.map((hit) =>
    piece(question, {
      source: 'code',
      ref: `${hit.path}:${hit.startLine}-${hit.endLine}`,
      title: hit.path,
      text: hit.text,
      score: hit.score,
    }),
  );
  return [symbols, passages];
}

/** The files behind the best code evidence, to summarise before reading; else what to index. */
function readNextOf(evidence: readonly Evidence[], code: CodeSearchResult | undefined): ReadNext[] {
  const paths = [
    ...new Set(
      evidence
        .filter((item) => item.source === 'code' || item.source === 'symbol')
        .map((item) => item.ref.split(':')[0]),
    ),
  ].slice(0, 3);
  if (paths.length > 0) {
    return paths.map((path) => ({
      tool: 'file_summary',
      arguments: { path },
      why: 'closest indexed code: its summary before the whole file',
    }));
  }
  if (!code) return [{ tool: 'cairn index', arguments: {}, why: 'no code index: index the repository' }];
  return [{ tool: 'kb_search', arguments: {}, why: 'nothing indexed covers the question: try other words' }];
}

function clip(text: string): string {
  return text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS - 1)}…` : text;
}
