import { hashtagsOf, mergeTopicCounts, normalizeTopic, topicsOf } from './topic-extraction';

describe('normalizeTopic', () => {
  it.each([
    ['Deploy', 'deploy'],
    ['  CI  Pipeline ', 'ci pipeline'],
    ['#Kubernetes', 'kubernetes'],
    ['ＤＥＰＬＯＹ', 'deploy'],
  ])('spells %j as %j', (raw, topic) => {
    expect(normalizeTopic(raw)).toBe(topic);
  });

  it.each(['', ' ', 'a', '#', '#x', 'x'.repeat(65)])('refuses %j as a topic', (raw) => {
    expect(normalizeTopic(raw)).toBeNull();
  });

  it('keeps a topic of exactly the maximum length', () => {
    expect(normalizeTopic('y'.repeat(64))).toBe('y'.repeat(64));
  });
});

describe('hashtagsOf', () => {
  it('finds hashtags at the start, mid-sentence and before punctuation, once each', () => {
    expect(hashtagsOf('#Deploy failed again; see #flaky-tests, then #deploy.')).toEqual(['deploy', 'flaky-tests']);
  });

  it('finds hashtags in other scripts', () => {
    expect(hashtagsOf('Nota: #producción usa #größe')).toEqual(['producción', 'größe']);
  });

  it.each([
    ['issue numbers', 'fixed in #123 and #45'],
    ['Markdown headings', '# Title\n## Sub'],
    ['URL fragments', 'see https://example.com/page#section and a/#b'],
    ['HTML entities', 'a &#x27; b &#39;'],
    ['CSS colours', 'color: #fff; background: #c0ffee; border: #deadbeef'],
    ['words glued to a #', 'C#sharp and foo#bar'],
    ['a lone letter', 'grade #a'],
  ])('ignores %s', (_what, text) => {
    expect(hashtagsOf(text)).toEqual([]);
  });

  it('drops trailing hyphens and underscores', () => {
    expect(hashtagsOf('#release-- is out, #hotfix_')).toEqual(['release', 'hotfix']);
  });
});

describe('topicsOf', () => {
  it('merges tags, keywords and hashtags into one entry per spelling with every source', () => {
    const topics = topicsOf({ tags: ['deploy', 'ci'], keywords: ['Deploy', 'rollout'], content: 'A #CI note' });
    expect(Object.fromEntries([...topics].map(([topic, sources]) => [topic, [...sources].sort()]))).toEqual({
      deploy: ['keyword', 'tag'],
      ci: ['hashtag', 'tag'],
      rollout: ['keyword'],
    });
  });
});

describe('mergeTopicCounts', () => {
  const none = { tag: 0, hashtag: 0, keyword: 0 };

  it('counts a scanned memory under its hashtag, adding to the total only when no tag or keyword counted it', () => {
    const merged = mergeTopicCounts(
      [{ topic: 'deploy', memories: 2, sources: { ...none, tag: 2 } }],
      [
        { tags: ['deploy'], keywords: [], content: 'Again #deploy' },
        { tags: [], keywords: [], content: 'A #deploy note and #canary' },
      ],
      undefined,
    );
    expect(merged).toEqual([
      { topic: 'deploy', memories: 3, sources: { tag: 2, hashtag: 2, keyword: 0 } },
      { topic: 'canary', memories: 1, sources: { ...none, hashtag: 1 } },
    ]);
  });

  it('keeps only hashtags under the prefix and orders equal counts by name', () => {
    const merged = mergeTopicCounts(
      [{ topic: 'dev', memories: 1, sources: { ...none, keyword: 1 } }],
      [{ tags: [], keywords: [], content: '#deploy #canary #debug' }],
      'de',
    );
    expect(merged.map((row) => [row.topic, row.memories])).toEqual([
      ['debug', 1],
      ['deploy', 1],
      ['dev', 1],
    ]);
  });

  it('does not change the counts it was given', () => {
    const aggregated = [{ topic: 'deploy', memories: 1, sources: { ...none, tag: 1 } }];
    mergeTopicCounts(aggregated, [{ tags: [], keywords: [], content: '#deploy' }], undefined);
    expect(aggregated[0]).toEqual({ topic: 'deploy', memories: 1, sources: { ...none, tag: 1 } });
  });
});
