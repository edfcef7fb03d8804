/**
 * The scale benchmark's corpus without holding it: memory `i` is the search corpus's
 * `corpusMemory(i)` (a pure function of the seed and `i`), and its id is a function of `i` too,
 * so a million memories are generated batch by batch and result ids map back to corpus indices
 * without a million-entry map.
 */
import { type CorpusIndex } from '../search/operations';
import { corpusMemory } from '../search/corpus';
import { type IdSource, type MemorySource } from '../search/seed';

/** The largest index whose id keeps the index in its last 12 hex digits. */
const MAX_INDEX = 2 ** 48 - 1;

/** A 32-bit integer mix (murmur3's finaliser): spreads consecutive indices over the whole range. */
function mix(value: number): number {
  let h = value | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const hex = (value: number, digits: number) => value.toString(16).padStart(digits, '0').slice(-digits);

/**
 * A version-4-shaped UUID for corpus memory `index`: the leading digits look random (the product's
 * ids are random UUIDs, so the primary key's B-tree fills in random order as it does in
 * production) and the last 12 hex digits are the index itself.
 */
export function scaleMemoryId(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX)
    throw new RangeError(`no scale memory id for ${index}`);
  const a = mix(index ^ 0x5ca1e000);
  const b = mix(a ^ index);
  const c = mix(b + 0x9e3779b9);
  return `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b, 3)}-${hex(8 | (c >>> 30), 1)}${hex(c, 3)}-${hex(index, 12)}`;
}

/** The corpus index of a scale memory id; undefined for any other id (e.g. one the store phase made). */
export function scaleIndexOf(id: string): number | undefined {
  const match = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-([0-9a-f]{12})$/.exec(id);
  if (!match?.[1]) return undefined;
  const index = Number.parseInt(match[1], 16);
  return scaleMemoryId(index) === id ? index : undefined;
}

/** The first `count` corpus memories, generated on demand. */
export function scaleMemories(count: number): MemorySource {
  return { length: count, at: (index) => (index >= 0 && index < count ? corpusMemory(index) : undefined) };
}

/** The ids of the first `count` corpus memories. */
export function scaleIds(count: number): IdSource {
  return { length: count, at: (index) => (index >= 0 && index < count ? scaleMemoryId(index) : undefined) };
}

export const SCALE_CORPUS_INDEX: CorpusIndex = { get: scaleIndexOf };
