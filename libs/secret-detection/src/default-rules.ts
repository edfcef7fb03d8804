import { ConnectionStringRule } from './connection-string.rule';
import { gitleaksRules } from './gitleaks-rules';
import { type ScanRule } from './scan-rule';

/**
 * The rule set Cairn scans with: gitleaks' rules (a maintained set of some 220 provider formats,
 * with keywords and entropy thresholds; see gitleaks-rules.generated.json for the version and what
 * was not carried over) and Cairn's connection-string rule, which gitleaks lacks.
 *
 * Why gitleaks rather than secretlint's recommended preset: the preset has about 15 rules
 * (AWS, GCP, GitHub, Slack, npm, SendGrid, OpenAI, Anthropic, private keys, basic auth, database
 * URLs, …), short of the 25 types the corpus covers, and its rules are code rather than data, so
 * they bring no keywords to prefilter with and no entropy thresholds to carry over. gitleaks'
 * rules are data (one TOML file) that a generator turns into ours, keywords and all.
 */
export function defaultSecretRules(): ScanRule[] {
  return [...gitleaksRules(), new ConnectionStringRule()];
}
