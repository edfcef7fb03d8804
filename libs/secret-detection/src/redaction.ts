import {
  type RedactionResult,
  type SecretFinding,
  type SecretTier,
  type SecretTypeCount,
} from './contract/secret.types';

/**
 * The id of a secret's placeholder, from its value. Injected so the caller chooses how ids are
 * made stable: the write path will use an HMAC under the tenant's key, so the same value gets
 * the same id within a tenant and an id reveals nothing about the value.
 */
export type SecretIdFor = (value: string) => string;

/** `[SECRET:<type>:<id>]`, as redactSecrets() writes it. */
export const PLACEHOLDER_PATTERN = /\[SECRET:([a-z0-9][a-z0-9-]*):([A-Za-z0-9_-]+)\]/g;

const TYPE = /^[a-z0-9][a-z0-9-]*$/;
const ID = /^[A-Za-z0-9_-]+$/;
const TIER_RANK: Record<SecretTier, number> = { high: 2, medium: 1 };

interface Span {
  start: number;
  end: number;
  /** The finding that names the merged span: the higher tier, then the longer one, then the first. */
  lead: SecretFinding;
}

function check(text: string, finding: SecretFinding): void {
  const { start, end, type } = finding;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > text.length || start >= end) {
    throw new RangeError(
      `finding ${finding.ruleId} [${start}, ${end}) is not a span of a ${text.length}-character text`,
    );
  }
  if (!TYPE.test(type)) throw new RangeError(`finding ${finding.ruleId} has a type a placeholder cannot carry`);
}

function outranks(a: SecretFinding, b: SecretFinding): boolean {
  const tier = TIER_RANK[a.tier] - TIER_RANK[b.tier];
  if (tier !== 0) return tier > 0;
  return a.end - a.start > b.end - b.start;
}

/** Overlapping findings become one span (touching ones stay apart), sorted by position. */
function mergeSpans(findings: readonly SecretFinding[]): Span[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const spans: Span[] = [];
  for (const finding of sorted) {
    const last = spans[spans.length - 1];
    if (last && finding.start < last.end) {
      last.end = Math.max(last.end, finding.end);
      if (outranks(finding, last.lead)) last.lead = finding;
    } else {
      spans.push({ start: finding.start, end: finding.end, lead: finding });
    }
  }
  return spans;
}

/**
 * Replaces each finding in `text` with `[SECRET:<type>:<id>]`, where the id is `idFor(value)`,
 * and counts the replacements per type. Overlapping findings are merged into one placeholder
 * named after the most specific of them (a provider's high-tier type over a generic one). Pure:
 * the value of a secret leaves this function only through `idFor`.
 */
export function redactSecrets(text: string, findings: readonly SecretFinding[], idFor: SecretIdFor): RedactionResult {
  for (const finding of findings) check(text, finding);
  const counts = new Map<string, number>();
  let redacted = '';
  let cursor = 0;
  for (const span of mergeSpans(findings)) {
    const id = idFor(text.slice(span.start, span.end));
    if (!ID.test(id)) throw new RangeError('idFor returned an id a placeholder cannot carry (use [A-Za-z0-9_-])');
    const type = span.lead.type;
    redacted += `${text.slice(cursor, span.start)}[SECRET:${type}:${id}]`;
    cursor = span.end;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  redacted += text.slice(cursor);
  const summary: SecretTypeCount[] = [...counts].map(([type, count]) => ({ type, count }));
  return { text: redacted, summary };
}
