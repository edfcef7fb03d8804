import { Inject, Injectable } from '@nestjs/common';
import { BadRequestError, CairnError } from '@cairn/common';
import { EMBEDDER, type Embedder } from '@cairn/embeddings';
import { type DuplicateCandidate, MemoryMaintenance, type MemoryScope, type WalkPosition } from '@cairn/memory';
import { vectorSearchSettings } from '@cairn/search';
import { type DuplicatePair } from './contract/memory-hygiene.types';

/** Partners per memory and kind: bounded work per memory (k of the k-NN probe). */
export const DUPLICATE_NEIGHBOURS = 5;
/** Memories examined per page: bounded work per request, whatever the project's size. */
export const DUPLICATE_PAGE_MEMORIES = 200;

/**
 * Transaction settings for `page`: iterative HNSW scans, and no sequential scans. The pre-paging
 * statement's k-NN probe was planned as a scan and sort of the whole project once per memory
 * (64 ms per memory at 10k rows, measured, against under 1 ms on the HNSW index): what ran it
 * into the statement timeout. Every statement of a page has an index to use, so refusing
 * sequential scans only guards against such a plan.
 */
export function duplicateSearchSettings(): Record<string, string> {
  return { ...vectorSearchSettings(DUPLICATE_NEIGHBOURS), enable_seqscan: 'off' };
}

export interface DuplicatePage {
  /** This page's pairs, most similar first. */
  readonly pairs: DuplicatePair[];
  /** Where the next page starts; null once every memory of the scope has been examined. */
  readonly nextCursor: string | null;
}

/** The next page's start: a memory of the walk, and how many of its pairs were already given. */
interface Cursor extends WalkPosition {
  readonly skip: number;
}

/**
 * Duplicate candidates, a page at a time (DESIGN §6 maintenance). The walk goes over the
 * scope's live memories newest first; each memory of a page looks up its partners through
 * indexes (equal normalised text, nearest vectors), so a page costs the same at 1k or 100k.
 *
 * A pair {x, y} is found from x when y is among x's partners, from y when x is among y's, or
 * both. It belongs to the first of the two in the walk that finds it, so following
 * `nextCursor` gives every pair once: a memory reached later drops a pair whose partner came
 * first and found it too. Memories written after a walk started may be missed by it (they sort
 * before its position); the next walk sees them.
 */
@Injectable()
export class DuplicateFinder {
  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    private readonly candidates: MemoryMaintenance,
  ) {}

  /** One page; runs inside the caller's tenant transaction (opened with `duplicateSearchSettings()`). */
  async page(
    scope: MemoryScope,
    options: { threshold: number; limit: number; cursor?: string; pageMemories?: number },
  ): Promise<DuplicatePage> {
    const size = options.pageMemories ?? DUPLICATE_PAGE_MEMORIES;
    const start = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
    return withTimeoutAsUnavailable(async () => {
      const walked = await this.candidates.walk(scope, start, size + 1);
      const probes = walked.slice(0, size).map((position) => position.id);
      const found = byProbe(await this.partners(scope, probes, options.threshold));
      // Partners met earlier in the walk: their own partners decide who owns the pair.
      const earlier = [...new Set([...found.values()].flatMap((list) => [...list.values()]))]
        .filter((candidate) => candidate.otherFirst && !found.has(candidate.other))
        .map((candidate) => candidate.other);
      const theirs = byProbe(await this.partners(scope, earlier, options.threshold));
      const partnersOf = (id: string) => found.get(id) ?? theirs.get(id);

      const pairs: DuplicatePair[] = [];
      for (const [index, probe] of probes.entries()) {
        const owned = [...(found.get(probe)?.values() ?? [])]
          .filter((candidate) => !candidate.otherFirst || !partnersOf(candidate.other)?.has(probe))
          .sort((x, y) => y.similarity - x.similarity || x.other.localeCompare(y.other));
        const skip = index === 0 && start && start.id === probe ? start.skip : 0;
        for (let at = skip; at < owned.length; at += 1) {
          if (pairs.length === options.limit) {
            return { pairs: sorted(pairs), nextCursor: encodeCursor({ ...walked[index], skip: at }) };
          }
          pairs.push(toPair(owned[at]));
        }
      }
      const next = walked[size];
      return { pairs: sorted(pairs), nextCursor: next ? encodeCursor({ ...next, skip: 0 }) : null };
    });
  }

  private partners(scope: MemoryScope, ids: readonly string[], threshold: number): Promise<DuplicateCandidate[]> {
    return this.candidates.partners(scope, this.embedder.model, ids, { threshold, perMemory: DUPLICATE_NEIGHBOURS });
  }
}

/** Per probe, its partners by id; equal text outranks whatever the vectors say about the same pair. */
function byProbe(candidates: readonly DuplicateCandidate[]): Map<string, Map<string, DuplicateCandidate>> {
  const result = new Map<string, Map<string, DuplicateCandidate>>();
  for (const candidate of candidates) {
    const partners = result.get(candidate.probe) ?? new Map<string, DuplicateCandidate>();
    result.set(candidate.probe, partners);
    const known = partners.get(candidate.other);
    if (!known || known.reason !== 'same_content') partners.set(candidate.other, candidate);
  }
  return result;
}

function toPair(candidate: DuplicateCandidate): DuplicatePair {
  const [a, b] =
    candidate.probe < candidate.other ? [candidate.probe, candidate.other] : [candidate.other, candidate.probe];
  return { a, b, similarity: candidate.similarity, reason: candidate.reason };
}

function sorted(pairs: DuplicatePair[]): DuplicatePair[] {
  return pairs.sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id, cursor.skip])).toString('base64url');
}

/** Opaque to clients; anything not made by encodeCursor is a 400, never a database error. */
function decodeCursor(text: string): Cursor {
  const invalid = () => new BadRequestError('cursor is not one this endpoint returned', undefined, 'bad_cursor');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 3) throw invalid();
  const [at, id, skip] = value as unknown[];
  if (typeof at !== 'string' || !/^-?\d{1,17}$/.test(at)) throw invalid();
  if (typeof id !== 'string' || !UUID.test(id)) throw invalid();
  if (typeof skip !== 'number' || !Number.isInteger(skip) || skip < 0 || skip > 2 * DUPLICATE_NEIGHBOURS)
    throw invalid();
  return { at, id, skip };
}

/**
 * The work is bounded, so the statement timeout should never fire; if the database is that
 * overloaded anyway, say so as a retryable 503 instead of an internal error.
 */
async function withTimeoutAsUnavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: unknown }).code === '57014') {
      throw new CairnError(
        503,
        'duplicates_timeout',
        'Finding duplicate candidates took too long; try again shortly',
        undefined,
        { 'Retry-After': '5' },
      );
    }
    throw error;
  }
}
