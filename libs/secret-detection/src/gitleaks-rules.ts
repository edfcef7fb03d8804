import {
  type GeneratedAllowlist,
  type GeneratedRule,
  type GeneratedRuleSet,
  type SecretTier,
} from './contract/secret.types';
import { GITLEAKS_RULES } from './gitleaks-rule-set';
import { type ScanRule, type SecretSpan, shannonEntropy } from './scan-rule';

/**
 * gitleaks' rules (generated from its default configuration, see gitleaks-rules.generated.json)
 * run the way gitleaks' detector runs them (detect/detect.go `detectRule`): every match of the
 * pattern, the secret taken from the rule's secret group (else the first non-empty group), an
 * entropy floor, then the global and the rule's allow lists (regexes against the secret, the
 * match or the line; stopwords against the secret).
 *
 * Two deliberate differences: a `gitleaks:allow` comment in the text does not exempt a finding
 * (in Cairn the text is written by an agent, not reviewed code; a tenant that wants secrets
 * kept says so in its `secrets` setting), and there is no decoding pass over base64 or hex
 * segments (a memory is prose; decoding every data: URL would cost more than it finds).
 *
 * Checked against gitleaks v8.30.1 itself (its detector with decoding off), with the generator's
 * prose suffix reverted: the same rule ids and secrets on every line of the corpus
 * (test/fixtures/secrets) and of gitleaks' own rule sources and test data (7,586 lines, 298 with
 * findings), except the 147 lines marked `gitleaks:allow`; since then Cairn adds one allow list
 * entry of its own (CAIRN_ALLOWLISTS below), which can only remove generic findings.
 */

/**
 * Allow lists Cairn adds to gitleaks' own, in gitleaks' form. gitleaks' generic rule already
 * allows `key` in its data-structure sense (`primary_key`, `foreign_key`, `bucket_key`,
 * `schema_key`, `sequence_key`, … and `key_id`, `key_name`, `key_size`, …) whatever the value;
 * this entry extends that family with more names of the same sense: keys that identify or order
 * data (cache, idempotency and deduplication keys, partition, sort, range, shard and row keys,
 * composite, compound, surrogate and unique keys, lookup keys) and a key's prefix, suffix or
 * namespace. Their values are ids and digests, often hex or UUIDs that pass the entropy floor.
 *
 * It does not treat hex digests or UUIDs as non-secrets: gitleaks counts `client_secret`,
 * `credentials` and `api_token` assigned a 64-hex value or a UUID as secrets (its own test
 * cases), and so does Cairn. The name must end the variable (`cache_key`, `cacheKey`), so
 * `cache_key_secret = …` is still a finding; names whose values can be credentials are left out
 * on purpose (PagerDuty's `routing_key` and a `message_key` are secrets; `hash_key` can be an
 * HMAC key).
 */
const CAIRN_ALLOWLISTS: Readonly<Record<string, readonly GeneratedAllowlist[]>> = {
  'generic-api-key': [
    {
      regexTarget: 'match',
      condition: 'or',
      regexes: [
        {
          source:
            '(?:^|[^a-z0-9])(?:(?:cache|composite|compound|dedup|dedupe|deduplication|idempotency|lookup|partition|range|row|shard|sort|surrogate|unique)[_.-]?key|key[_.-]?(?:prefix|suffix|namespace))(?![\\w.-])',
          flags: 'i',
        },
      ],
      stopwords: [],
    },
  ],
};

/**
 * The rules whose findings are "medium": they match an assignment or a command line of any
 * kind (`api_key = …`, `curl -u user:pass`) rather than a provider's own format, so only the
 * value's entropy and the allow lists separate a secret from a variable name. Every other
 * gitleaks rule names one provider's token format and is "high".
 */
const MEDIUM_TIER_RULES = new Set(['generic-api-key', 'curl-auth-header', 'curl-auth-user']);

interface CompiledAllowlist {
  readonly target: GeneratedAllowlist['regexTarget'];
  readonly condition: GeneratedAllowlist['condition'];
  readonly regexes: readonly RegExp[];
  readonly stopwords: readonly string[];
}

function compileAllowlist(list: GeneratedAllowlist): CompiledAllowlist {
  return {
    target: list.regexTarget,
    condition: list.condition,
    regexes: list.regexes.map(({ source, flags }) => new RegExp(source, flags)),
    stopwords: list.stopwords,
  };
}

interface Candidate {
  readonly secret: string;
  readonly match: string;
  readonly line: string;
}

/** gitleaks' `checkFindingAllowed` for text without a path or commit. */
function allowed(list: CompiledAllowlist, candidate: Candidate): boolean {
  const target = list.target === 'match' ? candidate.match : list.target === 'line' ? candidate.line : candidate.secret;
  const regexAllowed = target !== '' && list.regexes.some((regex) => regex.test(target));
  const lowered = candidate.secret.toLowerCase();
  const stopword = list.stopwords.some((word) => lowered.includes(word));
  if (list.condition === 'and') {
    const checks = [
      ...(list.regexes.length > 0 ? [regexAllowed] : []),
      ...(list.stopwords.length > 0 ? [stopword] : []),
    ];
    return checks.every(Boolean);
  }
  return regexAllowed || stopword;
}

/** The line (or lines, for a match across newlines) around text[start, end). */
function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to < 0 ? text.length : to);
}

/**
 * `[\w.-]{0,50}?`: how 100 of gitleaks' rules start, to take the variable name before the
 * keyword into the match (`db_password = …`). Tried at every position of the text it makes the
 * pattern cost 50 steps per character; so the rule runs without it (its keyword alternation lets
 * the engine skip ahead) and the match's start is found afterwards by walking back over name
 * characters: up to 50 of them, never into the previous match. The secret and the match's end
 * are the same either way (the lazy prefix reaches the first keyword from which the rest matches,
 * which is where the search without it stops), and the match text, which some allow lists read,
 * is the same too.
 */
const NAME_PREFIX = '[\\w.\\-]{0,50}?';
const NAME_CHAR = /[\w.-]/;

function nameStart(text: string, keywordAt: number, floor: number): number {
  let start = keywordAt;
  while (start > floor && keywordAt - start < 50 && NAME_CHAR.test(text[start - 1] ?? '')) start -= 1;
  return start;
}

class GitleaksRule implements ScanRule {
  readonly ruleId: string;
  readonly type: string;
  readonly tier: SecretTier;
  readonly keywords: readonly string[];
  readonly generic: boolean;
  private readonly regex: RegExp;
  /** Whether `regex` is the rule's pattern without its leading NAME_PREFIX. */
  private readonly namePrefix: boolean;
  private readonly allowlists: readonly CompiledAllowlist[];

  constructor(
    private readonly rule: GeneratedRule,
    global: CompiledAllowlist,
  ) {
    this.ruleId = `gitleaks:${rule.id}`;
    this.type = rule.id;
    this.tier = MEDIUM_TIER_RULES.has(rule.id) ? 'medium' : 'high';
    this.keywords = rule.keywords;
    this.generic = rule.id.includes('generic');
    // A pattern with two nested name prefixes keeps them (5 rules): the walk back covers one.
    this.namePrefix = rule.source.startsWith(NAME_PREFIX) && !rule.source.startsWith(`${NAME_PREFIX}(?:${NAME_PREFIX}`);
    const source = this.namePrefix ? rule.source.slice(NAME_PREFIX.length) : rule.source;
    // g: every match; d: the offsets of the groups, so the secret's own span is known.
    this.regex = new RegExp(source, `${rule.flags}gd`);
    this.allowlists = [global, ...[...rule.allowlists, ...(CAIRN_ALLOWLISTS[rule.id] ?? [])].map(compileAllowlist)];
  }

  find(text: string): SecretSpan[] {
    const spans: SecretSpan[] = [];
    const regex = this.regex;
    regex.lastIndex = 0;
    let previousEnd = 0;
    for (let match = regex.exec(text); match; match = regex.exec(text)) {
      if (match[0] === '') {
        regex.lastIndex += 1;
        continue;
      }
      const end = match.index + match[0].length;
      const start = this.namePrefix ? nameStart(text, match.index, previousEnd) : match.index;
      previousEnd = end;
      const whole = text.slice(start, end);
      const span = this.secretSpan(match, start, whole);
      if (!span) continue;
      const secret = text.slice(span.start, span.end);
      if (this.rule.entropy > 0 && shannonEntropy(secret) <= this.rule.entropy) continue;
      const candidate = { secret, match: whole.replace(/^\n+|\n+$/g, ''), line: lineAround(text, start, end) };
      if (this.allowlists.some((list) => allowed(list, candidate))) continue;
      spans.push(span);
    }
    return spans;
  }

  /** The secret group's span; gitleaks' rule: the configured group, else the first non-empty one, else the match. */
  private secretSpan(match: RegExpExecArray, start: number, whole: string): SecretSpan | undefined {
    const indices = match.indices ?? [];
    if (indices.length >= 2) {
      if (this.rule.secretGroup > 0) {
        const group = indices[this.rule.secretGroup];
        return group && group[1] > group[0] ? { start: group[0], end: group[1] } : undefined;
      }
      for (const group of indices.slice(1)) if (group && group[1] > group[0]) return { start: group[0], end: group[1] };
    }
    // The whole match, without the newlines gitleaks trims from it.
    const lead = whole.length - whole.replace(/^\n+/, '').length;
    const trail = whole.length - whole.replace(/\n+$/, '').length;
    return { start: start + lead, end: start + whole.length - trail };
  }
}

/** Every generated gitleaks rule, compiled. */
export function gitleaksRules(set: GeneratedRuleSet = GITLEAKS_RULES): ScanRule[] {
  const global = compileAllowlist(set.globalAllowlist);
  return set.rules.map((rule) => new GitleaksRule(rule, global));
}

/**
 * Regexes of one gitleaks allow list, compiled to match a whole value. Used by the supplement
 * rules to recognise placeholders the way gitleaks does rather than with a list of our own.
 */
export function gitleaksAllowlistPatterns(ruleId: string, set: GeneratedRuleSet = GITLEAKS_RULES): RegExp[] {
  const rule = set.rules.find((candidate) => candidate.id === ruleId);
  if (!rule) throw new Error(`gitleaks rule ${ruleId} is not in the generated rule set`);
  return rule.allowlists.flatMap((list) =>
    list.regexes.map(({ source, flags }) => new RegExp(`^(?:${source})$`, flags)),
  );
}

export function globalAllowlist(set: GeneratedRuleSet = GITLEAKS_RULES): {
  regexes: RegExp[];
  stopwords: readonly string[];
} {
  const compiled = compileAllowlist(set.globalAllowlist);
  return { regexes: [...compiled.regexes], stopwords: compiled.stopwords };
}
