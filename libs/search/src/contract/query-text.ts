import { stripControlCharacters, visibleTextSchema } from '@cairn/common';
import { z } from 'zod';

export const QUERY_MAX_CHARS = 4_000;

/**
 * Search text as the rankers get it: NFKC-folded (full-width and compatibility forms
 * become plain letters), control characters removed, whitespace collapsed. Any syntax is
 * just text: nothing in a query is interpreted as an operator.
 */
export function normaliseQuery(text: string): string {
  return stripControlCharacters(text.normalize('NFKC')).replace(/\s+/g, ' ').trim();
}

export const searchQuerySchema = visibleTextSchema(QUERY_MAX_CHARS, 'must contain some text')
  .transform(normaliseQuery)
  .pipe(z.string().min(1, 'must contain some text'));
