/**
 * Rewrites the committed secret-detection corpus (test/fixtures/secrets/corpus.jsonl):
 * `npm run -s build && node dist/bench/eval/make-secrets-corpus.js`. A fixed seed makes the
 * output the same on every run; the eval and its CI floor read the committed file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { repositoryRoot } from '../lib/report';
import { SECRETS_CORPUS_FILE } from './secrets-corpus';
import { buildSecretsCorpus, corpusText } from './secrets-corpus-build';

function main(): void {
  const items = buildSecretsCorpus();
  const out = resolve(repositoryRoot(__dirname), SECRETS_CORPUS_FILE);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, corpusText(items));
  const types = new Set(items.flatMap((item) => (item.type ? [item.type] : [])));
  const secrets = items.filter((item) => item.label === 'secret').length;
  process.stdout.write(
    `${secrets} secrets of ${types.size} types and ${items.length - secrets} clean lines written to ${SECRETS_CORPUS_FILE}\n`,
  );
}

main();
