/** The committed LongMemEval extract CI evaluates (see test/fixtures/eval/README.md). */
export const CI_SUBSET_FILE = 'test/fixtures/eval/longmemeval-ci.jsonl';

/**
 * Questions per type. Four of each of the six types keeps the file near 0.6 MB (five would be
 * 0.73 MB: the assistant-answer sessions are long) and the run well inside a minute.
 */
export const CI_SUBSET_PER_TYPE = 4;
