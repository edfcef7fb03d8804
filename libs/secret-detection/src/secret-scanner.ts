import { type SecretFinding } from './contract/secret.types';
import { KeywordPrefilter } from './keyword-prefilter';
import { type ScanRule } from './scan-rule';

/**
 * The size bound: rules run on windows of at most this many characters, so no pattern ever
 * backtracks over more than 64 KiB however large the text (a 5 MB knowledge-base document costs
 * 80 windows, each prefiltered on its own). Consecutive windows overlap by SCAN_OVERLAP_CHARS, so
 * a secret shorter than that (a 4096-bit RSA key in PEM is about 3.3 KB) lies whole in one window.
 */
export const SCAN_WINDOW_CHARS = 64 * 1024;
export const SCAN_OVERLAP_CHARS = 8 * 1024;

export interface SecretScan {
  readonly findings: SecretFinding[];
  /** How many times a rule's patterns ran (rule × window); 0 when the prefilter ruled all out. */
  readonly rulesRun: number;
  readonly windows: number;
}

/**
 * Finds secrets in text before it is stored. Pure and synchronous: no I/O, nothing logged, and
 * findings carry offsets, never values. Callers (the write paths, later) decide what to do: the
 * tenant's `secrets` setting chooses between redactSecrets() and refusing the write. No framework:
 * the server's SecretsModule provides one, and the `cairn` command scans files with the same rules
 * before it uploads them (`cairn kb index`).
 */
export class SecretScanner {
  private readonly prefilter: KeywordPrefilter;

  constructor(private readonly rules: readonly ScanRule[]) {
    this.prefilter = new KeywordPrefilter(rules);
  }

  /** The secrets in `text`, sorted by position; overlapping findings of different rules are all kept. */
  scan(text: string): SecretFinding[] {
    return this.inspect(text).findings;
  }

  /** scan() with how much work it took, for tests and metrics. */
  inspect(text: string): SecretScan {
    const found = new Map<string, SecretFinding & { generic: boolean }>();
    let rulesRun = 0;
    let windows = 0;
    for (let offset = 0; offset < text.length; offset += SCAN_WINDOW_CHARS - SCAN_OVERLAP_CHARS) {
      windows += 1;
      const window = text.slice(offset, offset + SCAN_WINDOW_CHARS);
      for (const rule of this.prefilter.candidates(window)) {
        rulesRun += 1;
        for (const span of rule.find(window)) {
          const finding = {
            ruleId: rule.ruleId,
            type: rule.type,
            tier: rule.tier,
            start: offset + span.start,
            end: offset + span.end,
            generic: rule.generic,
          };
          found.set(`${finding.ruleId}\u0000${finding.start}\u0000${finding.end}`, finding);
        }
      }
      if (offset + SCAN_WINDOW_CHARS >= text.length) break;
    }
    return { findings: settle([...found.values()]), rulesRun, windows };
  }
}

/**
 * Drops what gitleaks' `filter` drops: a generic finding inside a provider rule's finding (the
 * provider's type is the better name for it); and, from overlapping windows, a finding of a rule
 * inside a longer finding of the same rule (a token cut off at a window's end).
 */
function settle(findings: readonly (SecretFinding & { generic: boolean })[]): SecretFinding[] {
  const within = (inner: SecretFinding, outer: SecretFinding) =>
    inner !== outer && outer.start <= inner.start && inner.end <= outer.end;
  return findings
    .filter(
      (finding) =>
        !findings.some(
          (other) =>
            within(finding, other) &&
            ((finding.generic && !other.generic) ||
              (other.ruleId === finding.ruleId && other.end - other.start > finding.end - finding.start)),
        ),
    )
    .map(({ generic: _generic, ...finding }) => finding)
    .sort((a, b) => a.start - b.start || a.end - b.end || a.ruleId.localeCompare(b.ruleId));
}
