import { z } from 'zod';

// C0 controls except tab, newline and carriage return, plus DEL and C1 controls.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Removes control characters that have no place in stored text (DESIGN §8). */
export function stripControlCharacters(value: string): string {
  return value.replace(CONTROL_CHARACTERS, '');
}

/** A trimmed single-line display string (names, labels) with control characters removed. */
export function displayText(max: number) {
  return z
    .string()
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
