import { z } from 'zod';

// C0 controls except tab, newline and carriage return, plus DEL and C1 controls.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text PostgreSQL can store: each lone surrogate (JSON may carry one) becomes U+FFFD, as editors show it. */
export function wellFormed(value: string): string {
  return value.replace(LONE_SURROGATE, '\uFFFD');
}

/** Removes control characters that have no place in stored text (DESIGN §8). */
export function stripControlCharacters(value: string): string {
  return value.replace(CONTROL_CHARACTERS, '');
}

/**
 * Matches text with at least one character that survives trimming and control-character
 * removal. The whitespace class is spelled out (JavaScript's \s) so that every regex engine
 * reading the OpenAPI document (schemathesis uses Python's) agrees on what is blank.
 */
export const VISIBLE_TEXT =
  // eslint-disable-next-line no-control-regex -- control characters do not count as text
  /[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u0000-\u001f\u007f-\u009f]/;

/** Free text that must not be blank: documented as such (a pattern), enforced after cleaning too. */
export function visibleTextSchema(max: number, message = 'must not be empty') {
  return z.string().max(max, `must be at most ${max} characters`).regex(VISIBLE_TEXT, message);
}

/** A trimmed single-line display string (names, labels) with control characters removed. */
export function displayText(max: number) {
  // The input limit is the output limit: collapsing whitespace never makes a too-long name fit.
  return visibleTextSchema(max)
    .transform((value) => stripControlCharacters(value).replace(/\s+/g, ' ').trim())
    .pipe(z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`));
}

/** Lower-case URL-safe identifier used for tenant and project slugs. */
export const SLUG_PATTERN = /^[a-z][a-z0-9-]{2,39}$/;

export const slugSchema = z
  .string()
  .regex(
    SLUG_PATTERN,
    'must be 3-40 characters: a lower-case letter followed by lower-case letters, digits or hyphens',
  );

/** Agent identifiers as agents name themselves (e.g. `claude-code:alice`). */
export const agentIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$/,
    'must be 1-64 characters of letters, digits and . _ : @ - starting with a letter or digit',
  );
