/**
 * Rewrites the committed CI subset (test/fixtures/eval/longmemeval-ci.jsonl) from the full
 * release: `npm run -s build && node dist/bench/eval/make-ci-subset.js [--data PATH]`.
 * The release is not in the repository (eval-data.ts says where to get it), so the regression
 * check reads this extract.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { repositoryRoot } from '../lib/report';
import { CI_SUBSET_FILE, CI_SUBSET_PER_TYPE } from './ci-subset';
import { defaultEvalData, missingEvalData } from './eval-data';
import { readLongMemEval, selectSubset } from './longmemeval';

function main(): void {
  const root = repositoryRoot(__dirname);
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--data');
  const data = at >= 0 ? resolve(argv[at + 1] ?? '') : defaultEvalData(root);
  if (!existsSync(data)) throw missingEvalData(data);
  const subset = selectSubset(readLongMemEval(data), CI_SUBSET_PER_TYPE);
  const out = resolve(root, CI_SUBSET_FILE);
  mkdirSync(dirname(out), { recursive: true });
  // Verbatim records, one per line, in selection order.
  writeFileSync(out, `${subset.map((item) => JSON.stringify(item)).join('\n')}\n`);
  process.stdout.write(`${subset.length} questions from ${data} written to ${relative(root, out)}\n`);
}

main();
