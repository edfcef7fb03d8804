import { SqlParams, SqlSnapshot } from '@cairn/db';
import { Injectable } from '@nestjs/common';
import { TenantDb } from '@cairn/tenancy';
import { type MemoryScope } from './contract/memory-filter';
import { type MemoryCategory } from './contract/memory.types';
import { memoryFilterSql } from './memory-filter.sql';
import { EXAMPLE_SCOPE } from './memory.sql-examples';
import { type TopicCount, type TopicSourcesOf, TOPIC_MAX_CHARS, TOPIC_MIN_CHARS } from './topic-extraction';

/*
 * Computed when asked, over the memories the caller may see, never stored: visibility depends
 * on the viewer (private memories, shares and tag rules that change without the memory
 * changing), so stored counts would be right for nobody, and a topic table kept in sync on
 * every write, update and delete would only copy the tags and keywords columns. Aggregating
 * those arrays is one hash aggregate over the visible rows (some 500k labels at 100k memories);
 * hashtags live in free text, so only a bounded scan of the newest memories reads them.
 */

/** Live memories `scope` sees, over alias m: memory's one visibility rule (memoryFilterSql). */
const visibleSql = (scope: MemoryScope, params: SqlParams) => memoryFilterSql({ scope }, params, 'm');

/*
 * The SQL spelling of normalizeTopic for tags and keywords, which the write path already stored
 * in NFKC form (tags lower-cased too): lower case, whitespace runs as one space, `#` dropped.
 */
const NORMALISED_LABEL = `btrim(ltrim(btrim(regexp_replace(lower(x.label), '\\s+', ' ', 'g')), '#'))`;

export interface CategoryCount {
  readonly category: MemoryCategory;
  readonly memories: number;
  readonly newestAt: Date;
}

export interface CategoryNewest {
  readonly category: MemoryCategory;
  readonly id: string;
  readonly snippet: string;
  readonly createdAt: Date;
}

/** The topic view's reads of memories, in the caller's tenant transaction. */
@Injectable()
export class MemoryTopicsRepository {
  constructor(private readonly db: TenantDb) {}

  @SqlSnapshot({ params: [EXAMPLE_SCOPE] })
  async countVisible(scope: MemoryScope): Promise<number> {
    const params = new SqlParams();
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memories m WHERE ${visibleSql(scope, params)}`,
      params.values,
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Tag and keyword topics with how many visible memories carry each (a memory carrying one as
   * both counts once in `memories`), most frequent first, at most `limit`.
   */
  @SqlSnapshot(
    { name: 'every topic', params: [EXAMPLE_SCOPE, undefined, 500] },
    { name: 'under a prefix', params: [EXAMPLE_SCOPE, 'dep', 500] },
  )
  async tagAndKeywordTopics(scope: MemoryScope, prefix: string | undefined, limit: number): Promise<TopicCount[]> {
    const params = new SqlParams();
    const visible = visibleSql(scope, params);
    const under = prefix ? ` AND left(t.topic, ${params.add([...prefix].length)}) = ${params.add(prefix)}` : '';
    const rows = await this.db.query<{ topic: string; memories: number; tag: number; keyword: number }>(
      `WITH labels AS (
         SELECT m.id, t.topic, bool_or(t.source = 'tag') AS from_tag, bool_or(t.source = 'keyword') AS from_keyword
         FROM memories m
         CROSS JOIN LATERAL (
           SELECT ${NORMALISED_LABEL} AS topic, x.source
           FROM (SELECT unnest(m.tags) AS label, 'tag' AS source
                 UNION ALL SELECT unnest(m.keywords), 'keyword') x
         ) t
         WHERE ${visible} AND char_length(t.topic) BETWEEN ${TOPIC_MIN_CHARS} AND ${TOPIC_MAX_CHARS}${under}
         GROUP BY m.id, t.topic
       )
       SELECT topic, count(*)::int AS memories, count(*) FILTER (WHERE from_tag)::int AS tag,
         count(*) FILTER (WHERE from_keyword)::int AS keyword
       FROM labels GROUP BY topic ORDER BY memories DESC, topic LIMIT ${params.add(limit)}`,
      params.values,
    );
    return rows.map((row) => ({
      topic: row.topic,
      memories: row.memories,
      sources: { tag: row.tag, hashtag: 0, keyword: row.keyword },
    }));
  }

  /** The newest visible memories whose text holds a `#`, their text cut at `maxChars`: the hashtag scan. */
  @SqlSnapshot({ params: [EXAMPLE_SCOPE, 2000, 4000] })
  hashtagCandidates(scope: MemoryScope, limit: number, maxChars: number): Promise<TopicSourcesOf[]> {
    const params = new SqlParams();
    return this.db.query<TopicSourcesOf>(
      `SELECT m.tags, m.keywords, left(m.content, ${params.add(maxChars)}) AS content
       FROM memories m WHERE ${visibleSql(scope, params)} AND strpos(m.content, '#') > 0
       ORDER BY m.created_at DESC, m.id DESC LIMIT ${params.add(limit)}`,
      params.values,
    );
  }

  @SqlSnapshot({ params: [EXAMPLE_SCOPE] })
  categoryCounts(scope: MemoryScope): Promise<CategoryCount[]> {
    const params = new SqlParams();
    return this.db.query<CategoryCount>(
      `SELECT m.category, count(*)::int AS memories, max(m.created_at) AS "newestAt"
       FROM memories m WHERE ${visibleSql(scope, params)}
       GROUP BY m.category ORDER BY memories DESC, m.category`,
      params.values,
    );
  }

  /** The newest `perCategory` visible memories of each category, one short index walk each. */
  @SqlSnapshot({ params: [EXAMPLE_SCOPE, ['decision', 'bug'], 3, 160] })
  newestPerCategory(
    scope: MemoryScope,
    categories: readonly MemoryCategory[],
    perCategory: number,
    snippetChars: number,
  ): Promise<CategoryNewest[]> {
    const params = new SqlParams();
    const visible = visibleSql(scope, params);
    return this.db.query<CategoryNewest>(
      `SELECT c.category, n.id, n.snippet, n."createdAt"
       FROM unnest(${params.add(categories)}::text[]) AS c(category)
       CROSS JOIN LATERAL (
         SELECT m.id, left(m.content, ${params.add(snippetChars)}) AS snippet, m.created_at AS "createdAt"
         FROM memories m WHERE ${visible} AND m.category = c.category
         ORDER BY m.created_at DESC, m.id DESC LIMIT ${params.add(perCategory)}
       ) n
       ORDER BY c.category, n."createdAt" DESC, n.id DESC`,
      params.values,
    );
  }
}
