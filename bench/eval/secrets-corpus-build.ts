import { type SecretsCorpusItem, SeededRandom } from './secrets-corpus';
import { negatives } from './secrets-negatives';
import { encodedSecretPositives, positives } from './secrets-positives';

/** The corpus's seed and size: fixed, so regenerating it gives the committed file byte for byte. */
export const CORPUS_SEED = 20261124;
export const CORPUS_SECRETS_PER_TYPE = 6;

export function buildSecretsCorpus(): SecretsCorpusItem[] {
  const random = new SeededRandom(CORPUS_SEED);
  // Sets added later come last, so the lines before them keep their random values.
  return [...positives(random, CORPUS_SECRETS_PER_TYPE), ...negatives(random), ...encodedSecretPositives(random)];
}

export const corpusText = (items: readonly SecretsCorpusItem[]) =>
  `${items.map((item) => JSON.stringify(item)).join('\n')}\n`;
