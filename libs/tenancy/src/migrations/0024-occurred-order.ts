import { type Migration } from '@cairn/db';

/**
 * Dated recall's candidates ("what happened last Saturday?") are the rows nearest the question's
 * range, read in occurred_at order from each side of it (datedCandidatesStatement) and stopped at
 * the limit. memories_project_occurred cannot give that order under recall's visibility rule (its
 * projects are an array and team memories are OR-ed in), so the rows of a whole window were sorted:
 * a month at 1M memories sorted a twelfth of the tenant for 30 rows (0.9 s). This index gives the
 * order; the visibility rule filters as it is walked.
 */
export const occurredOrder: Migration = {
  version: 24,
  name: 'occurred-order',
  async up(sql) {
    await sql(`CREATE INDEX memories_occurred ON memories (occurred_at)`);
  },
};
