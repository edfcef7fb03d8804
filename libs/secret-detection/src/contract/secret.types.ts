/**
 * What the secret scanner reports and how redaction summarises it. No value of a secret is ever
 * part of these shapes: a finding says where and what kind, so it can be logged, counted,
 * audited or returned to a caller as it is.
 */

/**
 * high: a provider-specific format (cloud keys, private keys, JWTs, connection strings with a
 * password, GitHub/Slack/Stripe/OpenAI/Anthropic tokens, …), a near-certain secret;
 * medium: a generic assignment (`password=`, `api_key: …`) whose value has high entropy.
 */
export const SECRET_TIERS = ['high', 'medium'] as const;
export type SecretTier = (typeof SECRET_TIERS)[number];

export interface SecretFinding {
  /** Where the rule comes from and its name in that rule set, e.g. `gitleaks:github-pat`. */
  readonly ruleId: string;
  /** What kind of secret, e.g. `github-pat`, `connection-string-password`; used in placeholders. */
  readonly type: string;
  readonly tier: SecretTier;
  /** UTF-16 offsets of the secret itself (not the `password=` around it) in the scanned text. */
  readonly start: number;
  readonly end: number;
}

export interface SecretTypeCount {
  readonly type: string;
  readonly count: number;
}

export interface RedactionResult {
  readonly text: string;
  /** One entry per type, in order of first appearance; counts are of replaced spans. */
  readonly summary: readonly SecretTypeCount[];
}

/** An allow list of a rule, as gitleaks defines it (`[[rules.allowlists]]`), paths and commits left out. */
export interface GeneratedAllowlist {
  /** What the regexes are tested against: the secret (default), the whole match, or its line. */
  readonly regexTarget: 'secret' | 'match' | 'line';
  /** `and`: every given check must hold; `or`: any. */
  readonly condition: 'and' | 'or';
  readonly regexes: readonly { readonly source: string; readonly flags: string }[];
  readonly stopwords: readonly string[];
}

/** One rule of the generated rule file (libs/secrets/src/gitleaks-rules.generated.json). */
export interface GeneratedRule {
  readonly id: string;
  readonly description: string;
  readonly source: string;
  readonly flags: string;
  /** The capture group that holds the secret; 0: the first non-empty group, or the whole match. */
  readonly secretGroup: number;
  /** Shannon entropy (bits per character) the secret must exceed; 0: no check. */
  readonly entropy: number;
  /** Lower-case words of which at least one must occur in the text for the rule to run. */
  readonly keywords: readonly string[];
  readonly allowlists: readonly GeneratedAllowlist[];
}

export interface GeneratedRuleSet {
  readonly source: { readonly module: string; readonly version: string; readonly sha256: string };
  readonly globalAllowlist: GeneratedAllowlist;
  readonly rules: readonly GeneratedRule[];
  /** Rules of the source not carried over, each with why. */
  readonly dropped: readonly { readonly id: string; readonly reason: string }[];
}
