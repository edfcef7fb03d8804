import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSecretRules, SecretScanner } from '@cairn/secret-detection';
import { loadSecretsCorpus, SECRETS_CORPUS_FILE } from './secrets-corpus';
import { buildSecretsCorpus, corpusText } from './secrets-corpus-build';
import { evaluateSecrets, type SecretsEvalRun } from './secrets-eval';

/**
 * Secret-detection regression check on the committed corpus (`npm run eval -- --secrets` prints
 * the full table). Measured when the floors were set (gitleaks v8.30.1 rules and Cairn's one
 * allow-list entry, gitleaks-rules.ts `CAIRN_ALLOWLISTS`): recall 99.0% (201 of 203; the misses
 * are "the password is …" with no `=` or `:`, which gitleaks' generic rule needs, and a 32-hex
 * PagerDuty routing key whose entropy, 3.48, is under gitleaks' 3.5 floor), precision 100%, false
 * positives 0% (0 of 194). gitleaks' rules alone: 18 of 194 (9.3%), every one the generic rule on
 * a digest or id under a `*_key` name that identifies data (cache, idempotency, partition, sort…)
 * or on `KEY_PREFIX`. One line is worth 0.5 points of recall and 0.5 of false positives, so the
 * floors allow about three lines of drift: they catch a rule set or scanner change that broke
 * detection, and are not a target to tune the rules against.
 */
const FLOORS = {
  recall: 0.98,
  precision: 0.96,
  maxFalsePositiveRate: 0.02,
  maxHighTierFalsePositiveRate: 0.01,
  minTypes: 25,
} as const;

describe('secret detection on the labelled corpus', () => {
  const path = join(__dirname, '..', '..', SECRETS_CORPUS_FILE);
  const corpus = loadSecretsCorpus(path);
  let run: SecretsEvalRun;

  beforeAll(() => {
    run = evaluateSecrets(new SecretScanner(defaultSecretRules()), corpus);
  });

  it('is the corpus its generator makes, with at least 150 secrets of 25 types and 150 clean lines', () => {
    expect(readFileSync(path, 'utf8')).toBe(corpusText(buildSecretsCorpus()));
    expect(run.secretLines).toBeGreaterThanOrEqual(150);
    expect(run.cleanLines).toBeGreaterThanOrEqual(150);
    expect(run.types).toBeGreaterThanOrEqual(FLOORS.minTypes);
  });

  it('finds the secrets and leaves the look-alikes alone, above its floors', () => {
    expect(run.recall).toBeGreaterThanOrEqual(FLOORS.recall);
    expect(run.precision).toBeGreaterThanOrEqual(FLOORS.precision);
    expect(run.falsePositiveRate).toBeLessThanOrEqual(FLOORS.maxFalsePositiveRate);
    expect(run.highTierFalsePositiveRate).toBeLessThanOrEqual(FLOORS.maxHighTierFalsePositiveRate);
  });

  it('names most secrets by their own type', () => {
    const agreed = run.byType.filter((score) => score.lines > 0 && score.typeAgreement >= 0.8).length;
    expect(agreed).toBeGreaterThanOrEqual(FLOORS.minTypes);
  });
});
