/**
 * Topics of a memory: the labels an agent gave it (tags), the search-expansion terms it wrote
 * (keywords) and the #hashtags in its text, each normalised to one spelling so "Deploy",
 * " deploy " and "#deploy" count as one topic. Pure functions: the topic view (MemoryTopics)
 * applies the same rule to what PostgreSQL aggregates (tags, keywords) and to what it scans
 * (hashtags), and the unit tests pin the rule down.
 *
 * Keywords are the memory's `keywords` field, not terms mined from the content: the agent chose
 * them as salient, while frequent content terms are mostly vocabulary (the keyword ranker's
 * term statistics rank documents, they do not name subjects).
 */

export const TOPIC_SOURCES = ['tag', 'hashtag', 'keyword'] as const;
export type TopicSource = (typeof TOPIC_SOURCES)[number];

/** Shorter is noise ("a", "#1"); longer is a sentence, not a topic. Tags and keywords are capped at 64 on write. */
export const TOPIC_MIN_CHARS = 2;
export const TOPIC_MAX_CHARS = 64;

/**
 * One spelling per topic: Unicode-compatible form (full-width letters fold), lower case,
 * whitespace runs as one space, a leading `#` dropped. Null when what remains is too short or
 * too long to be a topic.
 */
export function normalizeTopic(raw: string): string | null {
  const topic = raw.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim().replace(/^#+/u, '').trim();
  const length = [...topic].length;
  return length >= TOPIC_MIN_CHARS && length <= TOPIC_MAX_CHARS ? topic : null;
}

/*
 * A hashtag: `#` then a letter, then letters, digits, `_` or `-`, not glued to a preceding word
 * character, `&` (HTML entities), `#` or `/` (URL fragments such as page#section). A leading
 * letter leaves out issue numbers (#123) and Markdown headings ("# Title" has a space).
 */
const HASHTAG = /(?<![\p{L}\p{N}_&#/])#(\p{L}[\p{L}\p{N}_-]*)/gu;
/** #fff, #c0ffee, #deadbeef: CSS colours, not subjects. */
const HEX_COLOUR = /^(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/u;

/** The distinct, normalised hashtags of a text, in order of first appearance. */
export function hashtagsOf(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(HASHTAG)) {
    // A trailing hyphen or underscore is punctuation ("#deploy-"), not part of the tag.
    const topic = normalizeTopic(match[1].replace(/[-_]+$/u, ''));
    if (topic && !HEX_COLOUR.test(topic)) found.add(topic);
  }
  return [...found];
}

export interface TopicSourcesOf {
  readonly tags: readonly string[];
  readonly keywords: readonly string[];
  readonly content: string;
}

/** Every topic of one memory and where it came from; a topic it carries twice counts once. */
export function topicsOf(memory: TopicSourcesOf): Map<string, Set<TopicSource>> {
  const topics = new Map<string, Set<TopicSource>>();
  const add = (topic: string | null, source: TopicSource) => {
    if (!topic) return;
    const sources = topics.get(topic) ?? new Set<TopicSource>();
    sources.add(source);
    topics.set(topic, sources);
  };
  for (const tag of memory.tags) add(normalizeTopic(tag), 'tag');
  for (const keyword of memory.keywords) add(normalizeTopic(keyword), 'keyword');
  for (const hashtag of hashtagsOf(memory.content)) add(hashtag, 'hashtag');
  return topics;
}

/** How many memories carry a topic, in all and per source (a memory may count under several). */
export interface TopicCount {
  readonly topic: string;
  readonly memories: number;
  readonly sources: Readonly<Record<TopicSource, number>>;
}

/**
 * Tag and keyword counts (aggregated by PostgreSQL over every visible memory) plus the hashtags
 * of the scanned memories. A scanned memory adds to a topic's total only when it does not
 * already carry the topic as a tag or keyword, so no memory is counted twice.
 */
export function mergeTopicCounts(
  aggregated: readonly TopicCount[],
  scanned: readonly TopicSourcesOf[],
  prefix: string | undefined,
): TopicCount[] {
  const counts = new Map(aggregated.map((row) => [row.topic, { ...row, sources: { ...row.sources } }]));
  for (const memory of scanned) {
    for (const [topic, sources] of topicsOf(memory)) {
      if (!sources.has('hashtag') || (prefix && !topic.startsWith(prefix))) continue;
      const row = counts.get(topic) ?? { topic, memories: 0, sources: { tag: 0, hashtag: 0, keyword: 0 } };
      row.sources.hashtag += 1;
      if (!sources.has('tag') && !sources.has('keyword')) row.memories += 1;
      counts.set(topic, row);
    }
  }
  return [...counts.values()].sort((a, b) => b.memories - a.memories || a.topic.localeCompare(b.topic));
}
