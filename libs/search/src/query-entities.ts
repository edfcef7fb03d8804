/** A phrase in straight or typographic double quotes, or in backticks. */
const QUOTED = /["“”`]([^"“”`]{2,200})["“”`]/g;
/**
 * Identifier-like tokens: with a digit, an underscore, inner dots/slashes/colons/hyphens
 * between word characters, inner capitals (getUser, PostgreSQL) or all capitals (API, AWS).
 */
const IDENTIFIER = /^(?=.*[A-Za-z])(?:.*\d.*|.*_.*|.*\w[./:-]\w.*|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Z]{2,}\d*s?)$/;
const CAPITALISED = /^[A-Z][a-z'’]+$/;
/** Capitalised at the start of a sentence (or after a colon or an opening bracket or quote). */
const SENTENCE_START = /(^|[.?!:;([{"“]\s*)$/;

/**
 * The words of a question that name something: quoted phrases, identifiers (eu-west-1,
 * user_id, v2.3, getUser, PROJ-12), acronyms (API, AWS) and capitalised words inside a
 * sentence (names of people, places, products). The keyword ranker weighs their terms above
 * common words of the same rarity; an agent's question about "the Stripe webhook" is about
 * Stripe first. Returned as one text for the ranker's own stemming; empty when there are none.
 */
export function queryEntities(query: string): string {
  const found: string[] = [];
  for (const match of query.matchAll(QUOTED)) found.push(match[1] ?? '');
  const withoutQuotes = query.replace(QUOTED, ' ');
  const tokens = withoutQuotes.matchAll(/[^\s,!?;()[\]{}"“”]+/g);
  for (const match of tokens) {
    const token = (match[0] ?? '').replace(/[.:'’]+$/, '');
    if (token.length < 2) continue;
    const before = withoutQuotes.slice(0, match.index ?? 0);
    if (IDENTIFIER.test(token)) found.push(token);
    else if (CAPITALISED.test(token) && !SENTENCE_START.test(before)) found.push(token);
  }
  return found.join(' ');
}
