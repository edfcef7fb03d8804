import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where `npm run eval` (and the tools beside it) find the LongMemEval oracle split when no
 * `--data` is given. The file is not in the repository (14 MB, MIT, the benchmark authors'):
 * download it into the clone's git-ignored `bench/eval/data/`; a copy beside the clone
 * (`../shared/eval/`, where the team's machines keep one) is used when that is missing.
 */
export const EVAL_DATA_URL =
  'https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/resolve/main/longmemeval_oracle.json';
export const EVAL_DATA_IN_CLONE = join('bench', 'eval', 'data', 'longmemeval_oracle.json');

export function defaultEvalData(root: string): string {
  const inClone = resolve(root, EVAL_DATA_IN_CLONE);
  const beside = resolve(root, '..', 'shared', 'eval', 'longmemeval_oracle.json');
  return existsSync(inClone) || !existsSync(beside) ? inClone : beside;
}

/** The error for missing data: where it was looked for and how to get it. */
export function missingEvalData(path: string): Error {
  return new Error(
    `evaluation data not found at ${path}; download LongMemEval's oracle split (MIT) with\n` +
      `  mkdir -p bench/eval/data && curl -L -o ${EVAL_DATA_IN_CLONE} ${EVAL_DATA_URL}\n` +
      'or pass --data PATH',
  );
}
