import { createHash } from 'node:crypto';
import { stripControlCharacters } from '@cairn/common';

const ELLIPSIS = '…';

/** Hex SHA-256 of text, as file summaries and generation requests key their inputs. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** One line: control characters removed, whitespace runs collapsed, trimmed. */
export function oneLine(text: string): string {
  return stripControlCharacters(text).replace(/\s+/g, ' ').trim();
}

/**
 * Cuts `text` to at most `max` characters at a word boundary, marking the cut with an
 * ellipsis. A single overlong word is cut mid-word rather than dropped: something beats nothing.
 */
export function capAtWord(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const room = trimmed.slice(0, max - ELLIPSIS.length);
  // The cut falls between words when the next character is a space; else back off to the last one.
  const boundary = /\s/.test(trimmed.charAt(room.length)) ? room.length : room.search(/\s\S*$/);
  const cut = boundary > max * 0.6 ? room.slice(0, boundary) : room;
  return `${cut.trimEnd()}${ELLIPSIS}`;
}

/**
 * What a model gets to read of a long input: the head and the tail with a marker between,
 * so context windows of small local models are not overrun by a 200,000-character transcript.
 */
export function clipForModel(text: string, max: number, tailShare = 0.5): string {
  if (text.length <= max) return text;
  const marker = `\n[… ${text.length - max} characters omitted …]\n`;
  const tail = Math.floor((max - marker.length) * tailShare);
  const head = max - marker.length - tail;
  return `${text.slice(0, head)}${marker}${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

/** Non-empty, trimmed lines of text, control characters removed. */
export function meaningfulLines(text: string): string[] {
  return stripControlCharacters(text)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}
