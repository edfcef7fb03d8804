import { Injectable } from '@nestjs/common';
import { type ResolvedWhen, searchWindow, type TemporalRange } from '@cairn/temporal';
import { corpusQuery, type CorpusQuery } from './contract/corpus';
import { type DatedOutcome, type DatedRankRequest, type RankOutcome } from './contract/rank-request';
import { RankingRepository } from './ranking.repository';
import { TextRanking } from './text-ranking.service';

/**
 * Ranking a question with dates (@cairn/temporal) over a corpus with a time column, in one call
 * from the caller: an anchored range is placed first (the row that best matches its event by
 * keyword, plus the offset); the text is ranked within the range when it filters, and the rows
 * dated near it are found whatever their words; a filter that finds nothing at all is applied
 * again as a boost. What the dates then do to the order is the caller's (memory's rankByTime).
 */
@Injectable()
export class DatedRanking {
  constructor(
    private readonly text: TextRanking,
    private readonly ranking: RankingRepository,
  ) {}

  async rank(corpus: CorpusQuery, request: DatedRankRequest): Promise<DatedOutcome> {
    const { dates } = request;
    let when = dates.when;
    let anchor: DatedOutcome['anchor'];
    if (when?.anchor) {
      anchor = (await this.place(corpus, when.anchor.event)) ?? null;
      when = anchor ? placed(when, anchor.occurredAt) : undefined;
    }
    const candidates = async (range: TemporalRange | undefined) => {
      const within = range ? narrowed(corpus, range) : corpus;
      // "What did I do last Saturday?": nothing but dates to rank by, so no text ranking at all.
      const text: RankOutcome | undefined =
        request.query === undefined || (dates.contentless && when?.range)
          ? undefined
          : await this.text.rank(within, { ...request, query: request.query });
      const dated = when?.range
        ? await this.ranking.datedCandidates(within, range ?? searchWindow(when.range), when.range, request.limit)
        : [];
      return { text, dated };
    };
    let found = await candidates(when?.use === 'filter' ? when.range : undefined);
    let relaxed = false;
    if (when?.use === 'filter' && (found.text?.ranked.length ?? 0) === 0 && found.dated.length === 0) {
      relaxed = true;
      when = { ...when, use: 'boost', weight: dates.relaxedWeight };
      found = await candidates(undefined);
    }
    return { ...(found.text && { text: found.text }), dated: found.dated, when, anchor, relaxed };
  }

  /** The row that best matches `event` by keyword, and when it occurred; undefined when none does. */
  private async place(corpus: CorpusQuery, event: string): Promise<{ id: string; occurredAt: Date } | undefined> {
    const { ranked } = await this.text.rank(corpus, { query: event, mode: 'keyword', limit: 1 });
    const best = ranked[0];
    if (!best) return undefined;
    const occurredAt = await this.ranking.occurredAt(corpus, best.id);
    return occurredAt && { id: best.id, occurredAt };
  }
}

/** "Two weeks before the trip": the window centred on the event's time plus the offset. */
function placed(when: ResolvedWhen, at: Date): ResolvedWhen {
  const anchor = when.anchor!;
  const centre = at.getTime() + anchor.offsetMs;
  return { ...when, range: { from: new Date(centre - anchor.halfWidthMs), to: new Date(centre + anchor.halfWidthMs) } };
}

/** The corpus's filter narrowed to rows that occurred in `range`, by its owner. */
function narrowed(corpus: CorpusQuery, range: TemporalRange): CorpusQuery {
  const { definition, filter } = corpus;
  if (!definition.within) throw new Error(`corpus ${definition.table} cannot narrow its filter to a time window`);
  return corpusQuery(definition, definition.within(filter, range));
}
