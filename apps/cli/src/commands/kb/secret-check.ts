import { defaultSecretRules, redactSecrets, type SecretFinding, SecretScanner } from '@cairn/secret-detection';

export interface SecretReport {
  readonly findings: readonly { readonly type: string; readonly line: number }[];
  /** The text with every finding replaced by `[SECRET:<type>:cli-<n>]` (for --secrets redact). */
  readonly redacted: string;
}

let scanner: SecretScanner | undefined;

/**
 * Scans a file's text with the server's own rules (gitleaks' rule set and Cairn's connection-
 * string rule, libs/secret-detection) before anything leaves the machine. The rules compile
 * once per run, on the first file.
 */
export function scanForSecrets(text: string): SecretReport | undefined {
  scanner ??= new SecretScanner(defaultSecretRules());
  const findings: SecretFinding[] = scanner.scan(text);
  if (findings.length === 0) return undefined;
  let counter = 0;
  const { text: redacted } = redactSecrets(text, findings, () => `cli-${++counter}`);
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
  return { findings: findings.map((finding) => ({ type: finding.type, line: lineOf(finding.start) })), redacted };
}
