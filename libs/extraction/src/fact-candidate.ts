import { stripControlCharacters } from '@cairn/common';
import { MEMORY_CATEGORIES, type MemoryCategory } from '@cairn/memory';
import { z } from 'zod';

/** At most this many candidates come out of one transcript. */
export const CANDIDATES_MAX = 20;
export const CANDIDATE_CONTENT_MAX_CHARS = 1_000;
const LABEL_MAX_CHARS = 64;
const KEYWORDS_MAX = 20;
const TAGS_MAX = 8;

/** A memory proposed from a transcript, before it is stored as a proposal or a memory. */
export interface FactCandidate {
  readonly content: string;
  readonly category: MemoryCategory;
  readonly importance: number;
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
}

const singleLine = (value: string) => stripControlCharacters(value.normalize('NFC')).replace(/\s+/g, ' ').trim();

/**
 * Keywords and tags are best effort: unusable entries are dropped, not the whole fact. Tags
 * are lower-case labels like the memory API stores them; keywords keep their case.
 */
function labels(max: number, lowerCase: boolean) {
  return z
    .array(z.unknown())
    .optional()
    .transform((items) => {
      const kept = new Map<string, string>();
      for (const item of items ?? []) {
        if (typeof item !== 'string') continue;
        const label = singleLine(item.normalize('NFKC'));
        if (label.length === 0 || label.length > LABEL_MAX_CHARS) continue;
        const key = label.toLowerCase();
        if (!kept.has(key)) kept.set(key, lowerCase ? key : label);
      }
      return [...kept.values()].slice(0, max);
    });
}

/**
 * One item of the model's answer. Content, category and importance must be exactly right or
 * the item is dropped (a fact of the wrong kind or weight is worse than none).
 */
export const candidateSchema = z.object({
  content: z.string().transform(singleLine).pipe(z.string().min(8).max(CANDIDATE_CONTENT_MAX_CHARS)),
  category: z
    .string()
    .transform((value) => value.trim().toLowerCase())
    .pipe(z.enum(MEMORY_CATEGORIES)),
  importance: z.number().int().min(1).max(5),
  keywords: labels(KEYWORDS_MAX, false),
  tags: labels(TAGS_MAX, true),
});

/** Case, punctuation and spacing do not make two facts different. */
export function dedupeKey(content: string): string {
  return content
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Drops repeats (by `dedupeKey`) and keeps at most CANDIDATES_MAX, in order. */
export function dedupeCandidates(candidates: readonly FactCandidate[]): FactCandidate[] {
  const seen = new Set<string>();
  const unique: FactCandidate[] = [];
  for (const candidate of candidates) {
    const key = dedupeKey(candidate.content);
    if (key.length === 0 || seen.has(key)) continue;
    seen.add(key);
    unique.push(candidate);
    if (unique.length >= CANDIDATES_MAX) break;
  }
  return unique;
}
