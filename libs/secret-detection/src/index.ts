export {
  type GeneratedAllowlist,
  type GeneratedRule,
  type GeneratedRuleSet,
  type RedactionResult,
  type SecretFinding,
  SECRET_TIERS,
  type SecretTier,
  type SecretTypeCount,
} from './contract/secret.types';
export { defaultSecretRules } from './default-rules';
export { GITLEAKS_RULES } from './gitleaks-rule-set';
export { PLACEHOLDER_PATTERN, redactSecrets, type SecretIdFor } from './redaction';
export { type ScanRule, type SecretSpan } from './scan-rule';
export { SCAN_OVERLAP_CHARS, SCAN_WINDOW_CHARS, type SecretScan, SecretScanner } from './secret-scanner';
