import { type SecretTier } from './contract/secret.types';

/** Where a rule found a secret in the text it was given: UTF-16 offsets of the secret itself. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * One detection rule as the scanner runs it. The scanner runs `find` only when the text holds
 * at least one of `keywords` (lower-case; the prefilter), so a rule's patterns cost nothing on
 * text that cannot contain its secret.
 */
export interface ScanRule {
  readonly ruleId: string;
  readonly type: string;
  readonly tier: SecretTier;
  readonly keywords: readonly string[];
  /**
   * A rule that matches assignments of any kind (gitleaks' `generic-api-key`): its finding
   * gives way to a provider rule's finding that covers the same secret, as in gitleaks.
   */
  readonly generic: boolean;
  find(text: string): readonly SecretSpan[];
}

/**
 * Shannon entropy in bits per character, computed as gitleaks does (detect/utils.go): symbol
 * counts per code point over the UTF-8 length, so thresholds carried over mean the same thing.
 */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = Buffer.byteLength(value, 'utf8');
  let entropy = 0;
  for (const count of counts.values()) {
    const p = count / length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}
