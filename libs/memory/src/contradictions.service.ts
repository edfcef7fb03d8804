import { Injectable } from '@nestjs/common';
import { type Author } from '@cairn/access';
import { HybridSearch } from '@cairn/search';
import { detectContradiction, prepareStatement } from './contradiction-detector';
import { ContradictionCandidatesRepository } from './contradiction-candidates.repository';
import { type MemoryScope } from './contract/memory-filter';
import { memoryEmbeddingText } from './memory-content';
import { MemoryRelationsRepository } from './memory-relations.repository';
import { type ContradictionWarning, type Memory } from './contract/memory.types';

const CANDIDATES = 10;

/**
 * On store and update: finds live memories on the same subject (the best keyword matches for
 * the new content, its keywords and tags), judges each pair, and records a `contradicts`
 * relation for strong cases. The write goes ahead either way.
 */
@Injectable()
export class ContradictionsService {
  constructor(
    private readonly search: HybridSearch,
    private readonly candidateRows: ContradictionCandidatesRepository,
    private readonly relations: MemoryRelationsRepository,
  ) {}

  async check(memory: Memory, scope: MemoryScope, by: Author): Promise<ContradictionWarning[]> {
    const candidates = await this.candidates(memory, scope);
    const warnings: ContradictionWarning[] = [];
    const statement = prepareStatement(memory.content);
    for (const candidate of candidates) {
      const verdict = detectContradiction(statement, candidate.content);
      if (!verdict) continue;
      const recorded = verdict.strength === 'strong';
      if (recorded) await this.relations.link(memory.id, candidate.id, 'contradicts', verdict.reason, by);
      warnings.push({ memoryId: candidate.id, content: candidate.content, ...verdict, recorded });
    }
    return warnings;
  }

  /**
   * Strong contradictions with another author's memory go to the project's review queue too
   * (issue 14): a reviewer decides which one holds. Between one author's own memories the
   * warning stays the only signal: the author can resolve it alone.
   */
  async queueForReview(projectId: string, memory: Memory, warnings: readonly ContradictionWarning[]): Promise<void> {
    const strong = warnings.filter((warning) => warning.recorded).map((warning) => warning.memoryId);
    await this.candidateRows.queueReviews(projectId, memory.id, strong);
  }

  /**
   * The memories most similar in wording, by the keyword ranker with the new content as the
   * query (its rarest terms, which name the subject). Tags and keywords are part of what it
   * matches; a memory sharing only a tag has no words in common to contradict.
   */
  private async candidates(memory: Memory, scope: MemoryScope): Promise<{ id: string; content: string }[]> {
    const { ranked } = await this.search.rank(this.candidateRows.corpus(scope, memory.id), {
      query: memoryEmbeddingText(memory.content, [...memory.keywords, ...memory.tags]),
      mode: 'keyword',
      limit: CANDIDATES,
      // A contradiction shares the subject's rarest words: the rows holding those suffice, and
      // they keep the check cheap inside the write transaction at any project size.
      maxTerms: 12,
      matchBudget: 200,
    });
    if (ranked.length === 0) return [];
    return this.candidateRows.contents(ranked.map((hit) => hit.id));
  }
}
