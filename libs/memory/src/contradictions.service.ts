import { Injectable } from '@nestjs/common';
import { type Author } from '@cairn/access';
import { HybridSearch } from '@cairn/search';
import { detectContradiction, prepareStatement } from './contradiction-detector';
import { ContradictionCandidatesRepository } from './contradiction-candidates.repository';
import { type MemoryScope } from './contract/memory-filter';
import { memoryEmbeddingText } from './memory-content';
import { MemoryRelationsRepository } from './memory-relations.repository';
import { type ContradictionWarning } from './contract/memory.types';

const CANDIDATES = 10;

/** What the check compares: a memory's (redacted) text, before or after it is written. */
export interface ContradictionSubject {
  readonly id: string;
  readonly content: string;
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
}

/**
 * On store and update: finds live memories on the same subject (the best keyword matches for
 * the new content, its keywords and tags) and judges each pair (`find`, which writes nothing);
 * then records a `contradicts` relation for each strong case and queues the ones with another
 * author for review (`record`, in the write's transaction). The write goes ahead either way.
 */
@Injectable()
export class ContradictionsService {
  constructor(
    private readonly search: HybridSearch,
    private readonly candidateRows: ContradictionCandidatesRepository,
    private readonly relations: MemoryRelationsRepository,
  ) {}

  /**
   * The warnings for `subject` among the memories of `scope`, leaving out `excluded` (memories
   * the write is about to supersede: once it commits they are no longer live). Strong ones are
   * marked `recorded`: `record` stores exactly those. Reads only, so a store runs it before its
   * write transaction.
   */
  async find(
    subject: ContradictionSubject,
    scope: MemoryScope,
    excluded: readonly string[] = [],
  ): Promise<ContradictionWarning[]> {
    const candidates = await this.candidates(subject, scope, new Set(excluded));
    const warnings: ContradictionWarning[] = [];
    const statement = prepareStatement(subject.content);
    for (const candidate of candidates) {
      const verdict = detectContradiction(statement, candidate.content);
      if (!verdict) continue;
      warnings.push({
        memoryId: candidate.id,
        content: candidate.content,
        ...verdict,
        recorded: verdict.strength === 'strong',
      });
    }
    return warnings;
  }

  /**
   * Inside the write's transaction, once `memory` exists: a `contradicts` relation for each
   * strong warning, and strong contradictions with another author's memory queued for review in
   * the project (issue 14): a reviewer decides which one holds. Between one author's own memories
   * the warning stays the only signal: the author can resolve it alone. Both writes are
   * idempotent (one relation per pair and type; a pending review of a pair is kept), and they
   * commit or roll back with the memory: a review is queued exactly once.
   */
  async record(
    projectId: string,
    memoryId: string,
    warnings: readonly ContradictionWarning[],
    by: Author,
  ): Promise<void> {
    const strong = warnings.filter((warning) => warning.recorded);
    if (strong.length === 0) return;
    for (const warning of strong)
      await this.relations.link(memoryId, warning.memoryId, 'contradicts', warning.reason, by);
    await this.candidateRows.queueReviews(
      projectId,
      memoryId,
      strong.map((warning) => warning.memoryId),
    );
  }

  /**
   * The memories most similar in wording, by the keyword ranker with the new content as the
   * query (its rarest terms, which name the subject). Tags and keywords are part of what it
   * matches; a memory sharing only a tag has no words in common to contradict.
   */
  private async candidates(
    subject: ContradictionSubject,
    scope: MemoryScope,
    excluded: ReadonlySet<string>,
  ): Promise<{ id: string; content: string }[]> {
    const { ranked } = await this.search.rank(this.candidateRows.corpus(scope, subject.id), {
      query: memoryEmbeddingText(subject.content, [...subject.keywords, ...subject.tags]),
      mode: 'keyword',
      // The excluded ones may rank among the first: as many more, so the rest still fill the list.
      limit: CANDIDATES + excluded.size,
      // A contradiction shares the subject's rarest words: the rows holding those suffice, and
      // they keep the check cheap at any project size.
      maxTerms: 12,
      matchBudget: 200,
    });
    const kept = ranked.filter((hit) => !excluded.has(hit.id)).slice(0, CANDIDATES);
    if (kept.length === 0) return [];
    return this.candidateRows.contents(kept.map((hit) => hit.id));
  }
}
