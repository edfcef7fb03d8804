import { Injectable } from '@nestjs/common';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { projectScope } from './memory-access';
import { type MemoryViewer } from './contract/memory-viewer';
import { type CategoriesResult, type TopicsResult } from './contract/memory-topics.dto';
import { MemoryTopicsRepository } from './memory-topics.repository';
import { mergeTopicCounts } from './topic-extraction';

/*
 * Bounds that keep one call cheap at 100k memories: the aggregated topics kept before hashtags
 * are merged in (a hashtag can lift a topic past the cut only from below this pool), the
 * memories and characters the hashtag scan reads (at most 8 MB of text), and the snippet size.
 */
const TOPIC_POOL = 500;
const HASHTAG_SCAN_MEMORIES = 2_000;
const HASHTAG_SCAN_CHARS = 4_000;
const SNIPPET_CHARS = 160;

/** One line of at most SNIPPET_CHARS characters: newlines would break the text answers' layout. */
function snippetOf(content: string): string {
  const line = content.replace(/\s+/gu, ' ').trim();
  return line.length < SNIPPET_CHARS ? line : `${line.slice(0, SNIPPET_CHARS - 1)}…`;
}

/**
 * The topic view of a project (memory_topics, memory_categories and their REST routes): what
 * the caller's memories are about, counted only over memories it may see inside the project
 * (the project's and the team's, private ones by memory's rule, as memory_list shows them).
 */
@Injectable()
export class MemoryTopics {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly topics: MemoryTopicsRepository,
  ) {}

  topicsOf(
    projectSlug: string,
    viewer: MemoryViewer,
    prefix: string | undefined,
    limit: number,
  ): Promise<TopicsResult> {
    return this.tx.run(async () => {
      const scope = projectScope(await this.resolver.resolve(projectSlug), viewer);
      const memories = await this.topics.countVisible(scope);
      const aggregated = await this.topics.tagAndKeywordTopics(scope, prefix, TOPIC_POOL);
      // One more than the scan reads tells whether it read them all.
      const found = await this.topics.hashtagCandidates(scope, HASHTAG_SCAN_MEMORIES + 1, HASHTAG_SCAN_CHARS);
      const scanned = found.slice(0, HASHTAG_SCAN_MEMORIES);
      return {
        memories,
        topics: mergeTopicCounts(aggregated, scanned, prefix).slice(0, limit),
        hashtagScan: { scanned: scanned.length, complete: found.length <= HASHTAG_SCAN_MEMORIES },
      };
    });
  }

  categoriesOf(projectSlug: string, viewer: MemoryViewer, perCategory: number): Promise<CategoriesResult> {
    return this.tx.run(async () => {
      const scope = projectScope(await this.resolver.resolve(projectSlug), viewer);
      const counts = await this.topics.categoryCounts(scope);
      const newest =
        perCategory === 0 || counts.length === 0
          ? []
          : await this.topics.newestPerCategory(
              scope,
              counts.map((row) => row.category),
              perCategory,
              // A little more than the snippet, so a cut shows as one.
              SNIPPET_CHARS + 1,
            );
      return {
        memories: counts.reduce((sum, row) => sum + row.memories, 0),
        categories: counts.map((row) => ({
          category: row.category,
          memories: row.memories,
          newestAt: row.newestAt.toISOString(),
          newest: newest
            .filter((memory) => memory.category === row.category)
            .map((memory) => ({
              id: memory.id,
              snippet: snippetOf(memory.snippet),
              createdAt: memory.createdAt.toISOString(),
            })),
        })),
      };
    });
  }
}
