import { createHash } from 'node:crypto';
import { stripControlCharacters, wellFormed } from '@cairn/common';

/**
 * Document text as it is stored and hashed: NFKC-folded, line endings unified to `\n`,
 * control characters removed (tab and newline stay: they carry layout), lone surrogates
 * replaced, outer whitespace trimmed. The same input always gives the same text, so the
 * content hash identifies the content, not its encoding accidents.
 */
export function normaliseDocumentText(text: string): string {
  const unified = text.normalize('NFKC').replace(/\r\n?/g, '\n');
  return wellFormed(stripControlCharacters(unified)).trim();
}

/** Hex SHA-256 of text: the content identity used for de-duplication and embedding currency. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A one-line label (source, title) as stored: control characters removed, whitespace collapsed. */
export function normaliseLabel(value: string): string {
  return stripControlCharacters(value).replace(/\s+/g, ' ').trim();
}
