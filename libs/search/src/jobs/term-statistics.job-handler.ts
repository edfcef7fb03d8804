import { type HandlesJob, JobHandler, type JobResult } from '@cairn/jobs';
import { TermStatistics } from '../term-statistics.service';

/**
 * `maintenance/term-statistics-fold`: keeps the keyword ranker's statistics one row per term,
 * so ranking cost does not grow with the writes since the last fold.
 */
@JobHandler('maintenance', 'term-statistics-fold')
export class TermStatisticsFoldJobHandler implements HandlesJob<'maintenance', 'term-statistics-fold'> {
  constructor(private readonly statistics: TermStatistics) {}

  async handle(): Promise<JobResult> {
    const result = await this.statistics.fold();
    if (result.busy && result.deltas === 0) return { status: 'skipped', detail: 'another fold is running' };
    return { status: 'done', counts: { deltas: result.deltas, terms: result.terms } };
  }
}
