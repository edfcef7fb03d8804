/**
 * Decides whether two statements on the same subject conflict: one negates the other,
 * they hold opposite values (enabled/disabled, true/false…), or they give a different value
 * for the same key ("port is 8080" / "port is 9090"). Pure and deterministic; the service
 * picks the candidates, this judges each pair.
 */

export interface Contradiction {
  readonly strength: 'weak' | 'strong';
  readonly reason: string;
}

const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'nothing', 'without', 'cannot', 'neither', 'nor']);
const NEGATED_CONTRACTIONS = /\b(\w+)n['’]t\b/g;

const OPPOSITES: readonly (readonly [string, string])[] = [
  ['enabled', 'disabled'],
  ['enable', 'disable'],
  ['true', 'false'],
  ['on', 'off'],
  ['yes', 'no'],
  ['allow', 'deny'],
  ['allowed', 'forbidden'],
  ['allowed', 'denied'],
  ['always', 'never'],
  ['include', 'exclude'],
  ['included', 'excluded'],
  ['sync', 'async'],
  ['synchronous', 'asynchronous'],
  ['public', 'private'],
  ['required', 'optional'],
  ['mandatory', 'optional'],
  ['increase', 'decrease'],
  ['increased', 'decreased'],
  ['success', 'failure'],
  ['succeeds', 'fails'],
  ['accept', 'reject'],
  ['accepted', 'rejected'],
  ['open', 'closed'],
  ['start', 'stop'],
  ['valid', 'invalid'],
  ['supported', 'unsupported'],
  ['works', 'broken'],
  ['before', 'after'],
  ['above', 'below'],
  ['min', 'max'],
  ['minimum', 'maximum'],
  ['first', 'last'],
  ['like', 'dislike'],
  ['likes', 'dislikes'],
  ['prefer', 'avoid'],
  ['prefers', 'avoids'],
  ['use', 'avoid'],
  ['online', 'offline'],
  ['up', 'down'],
  ['light', 'dark'],
  ['tabs', 'spaces'],
];
const OPPOSITE_OF = new Map<string, string[]>();
for (const [a, b] of OPPOSITES) {
  OPPOSITE_OF.set(a, [...(OPPOSITE_OF.get(a) ?? []), b]);
  OPPOSITE_OF.set(b, [...(OPPOSITE_OF.get(b) ?? []), a]);
}

const FILLER = new Set([
  'the',
  'a',
  'an',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'to',
  'of',
  'in',
  'on',
  'for',
  'and',
  'or',
  'it',
  'this',
  'that',
  'we',
  'our',
  'should',
  'must',
  'will',
  'be',
  'by',
  'with',
  'as',
  'at',
  'set',
  'uses',
  'use',
]);

interface Analysis {
  readonly words: string[];
  readonly negated: boolean;
  readonly subject: Set<string>;
  readonly numbers: string[];
  readonly skeleton: string;
}

function analyse(text: string): Analysis {
  const lower = text.normalize('NFKC').toLowerCase();
  const words = lower.replace(NEGATED_CONTRACTIONS, '$1 not').match(/[\p{L}\p{N}][\p{L}\p{N}._-]*/gu) ?? [];
  const negations = words.filter((word) => NEGATIONS.has(word)).length;
  const subject = new Set(
    words.filter((word) => !FILLER.has(word) && !NEGATIONS.has(word) && !OPPOSITE_OF.has(word) && !/^\d/.test(word)),
  );
  const numbers = words.filter((word) => /^\d+([.,]\d+)*$/.test(word));
  const skeleton = words
    .filter((word) => !FILLER.has(word))
    .map((word) => (/^\d/.test(word) ? '#' : word))
    .join(' ');
  return { words, negated: negations % 2 === 1, subject, numbers, skeleton };
}

function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / Math.min(a.size, b.size);
}

/** What a setting's value names: `[\p{L}\p{N}_.@/:+-]+` after the operator. */
const OPERATOR = /\s*(=|:|\b(?:is|are|set to|defaults to|equals)\b)\s*([\p{L}\p{N}_.@/:+-]+)/giu;
const KEY_CHAR = /[\p{L}\p{N}_.\- ]/u;
const LETTER = /\p{L}/u;
/** Longest key looked back over, in characters. */
const KEY_MAX = 41;

/**
 * Explicit settings: `key: value`, `key = value`, `key set to / defaults to value`, and
 * `key is Value` when the value names something (a number, a version, a proper name) rather
 * than describing it: "the database is PostgreSQL" is a setting, "Postgres is fast" is not.
 * Operators are found first and each key is read backwards from its operator: one pass over
 * the text (a single regex that searched for keys first cost ~140 µs on a 200-character
 * sentence with no setting in it, and ran for every stored memory's candidates).
 */
function settings(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const normalised = text.normalize('NFKC');
  const operators = new RegExp(OPERATOR);
  let keyFloor = 0;
  for (let match = operators.exec(normalised); match; match = operators.exec(normalised)) {
    const key = keyBefore(normalised, match.index, keyFloor);
    if (key === undefined) {
      // No key before this operator: its value may hold the next key ("Defaults to http://…").
      operators.lastIndex = match.index + match[0].length - (match[2] ?? '').length;
      continue;
    }
    keyFloor = operators.lastIndex;
    const verb = (match[1] ?? '').toLowerCase();
    const rawValue = (match[2] ?? '').replace(/[.,;]+$/, '');
    const naming = /\p{N}/u.test(rawValue) || /^\p{Lu}/u.test(rawValue) || /^(true|false)$/i.test(rawValue);
    if ((verb === 'is' || verb === 'are') && !naming) continue;
    const words = key
      .toLowerCase()
      .split(/\s+/)
      .filter((word) => word && !FILLER.has(word))
      .slice(-3)
      .join(' ');
    const value = rawValue.toLowerCase();
    if (words && value && !FILLER.has(value) && !NEGATIONS.has(value)) found.set(words, value);
  }
  return found;
}

/** The run of key characters ending at `end` (at most KEY_MAX, not before `floor`), from its first letter. */
function keyBefore(text: string, end: number, floor: number): string | undefined {
  let start = end;
  while (start > floor && end - start < KEY_MAX && KEY_CHAR.test(text[start - 1] ?? '')) start -= 1;
  while (start < end && !LETTER.test(text[start] ?? '')) start += 1;
  return start < end ? text.slice(start, end).trimEnd() : undefined;
}

/** A statement analysed once, to be judged against many others. */
export interface PreparedStatement {
  readonly analysis: Analysis;
  readonly settings: Map<string, string>;
}

export function prepareStatement(text: string): PreparedStatement {
  let cached: Map<string, string> | undefined;
  return {
    analysis: analyse(text),
    // Only pairs that share a subject get this far: computed on first use.
    get settings() {
      cached ??= settings(text);
      return cached;
    },
  };
}

export function detectContradiction(
  newStatement: string | PreparedStatement,
  existingStatement: string | PreparedStatement,
): Contradiction | null {
  const newer = typeof newStatement === 'string' ? prepareStatement(newStatement) : newStatement;
  const existing = typeof existingStatement === 'string' ? prepareStatement(existingStatement) : existingStatement;
  const a = newer.analysis;
  const b = existing.analysis;
  const shared = overlap(a.subject, b.subject);
  if (shared < 0.3) return null;

  for (const [key, value] of newer.settings) {
    const other = existing.settings.get(key);
    if (other !== undefined && other !== value) {
      return { strength: 'strong', reason: `different value for "${key}": "${value}" vs "${other}"` };
    }
  }
  if (a.skeleton === b.skeleton && a.numbers.join() !== b.numbers.join()) {
    return {
      strength: 'strong',
      reason: `same statement with different numbers (${a.numbers.join(', ')} vs ${b.numbers.join(', ')})`,
    };
  }
  for (const word of a.words) {
    for (const opposite of OPPOSITE_OF.get(word) ?? []) {
      if (b.words.includes(opposite) && !a.words.includes(opposite) && !b.words.includes(word)) {
        return { strength: shared >= 0.5 ? 'strong' : 'weak', reason: `opposite values: "${word}" vs "${opposite}"` };
      }
    }
  }
  if (a.negated !== b.negated && shared >= 0.5) {
    return { strength: shared >= 0.75 ? 'strong' : 'weak', reason: 'one statement negates the other' };
  }
  return null;
}
