import { Inject, Injectable } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { EMBEDDER, type Embedder } from '@cairn/embeddings';
import { ProjectResolver } from '@cairn/projects';
import { vectorSearchSettings } from '@cairn/search';
import { TenantTransaction } from '@cairn/tenancy';
import {
  assertMayModify,
  assertMayWriteTenantWide,
  type Memory,
  MemoryRecords,
  type MemoryScope,
  projectScope,
  visibleIn,
} from '@cairn/memory';
import { type DuplicatePair } from './contract/memory-hygiene.types';
import { DuplicateScanRepository } from './duplicate-scan.repository';
import { type DecayOptions, MemoryHygieneRepository, type PruneOptions } from './memory-hygiene.repository';

export interface ScopedMaintenance {
  /** Also maintain tenant-wide memories (needs a token scoped to every project). */
  readonly includeTenantWide: boolean;
}

/** Recent memories that look for vector neighbours, and neighbours per memory: bounded work. */
const DUPLICATE_WINDOW = 500;
const DUPLICATE_NEIGHBOURS = 5;
/** The periodic scan looks further back and keeps more, at a slightly looser threshold. */
const SCAN_WINDOW = 5_000;
const SCAN_LIMIT = 500;
const SCAN_THRESHOLD = 0.92;

/**
 * Memory hygiene (DESIGN §6 maintenance): confidence decays for unused memories (recall
 * raises it again, see AccessRecorder), prune archives what stayed unused
 * and doubtful, restore brings it back, and duplicate candidates are found for merging.
 * Pinned memories are exempt from decay and pruning.
 */
@Injectable()
export class MemoryHygiene {
  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly hygiene: MemoryHygieneRepository,
    private readonly memories: MemoryRecords,
    private readonly scans: DuplicateScanRepository,
  ) {}

  decay(projectSlug: string, principal: SessionPrincipal, options: DecayOptions & ScopedMaintenance): Promise<number> {
    return this.tx.run(async () => this.hygiene.decay(await this.scope(projectSlug, principal, options), options));
  }

  /** The scheduled decay: every project of the tenant and its tenant-wide memories. */
  decayAll(options: DecayOptions): Promise<number> {
    return this.tx.run(async () => {
      const projects = await this.resolver.resolveMany('*');
      return this.hygiene.decay(
        { projectIds: projects.map((project) => project.id), includeTenantWide: true },
        options,
      );
    });
  }

  /** The archived ids (or with `dryRun`, those that would be). */
  prune(
    projectSlug: string,
    principal: SessionPrincipal,
    options: PruneOptions & ScopedMaintenance,
  ): Promise<string[]> {
    return this.tx.run(async () => this.hygiene.prune(await this.scope(projectSlug, principal, options), options));
  }

  /** Un-archives a memory (idempotent); the author or a maintainer may. */
  restore(projectSlug: string, principal: SessionPrincipal, id: string): Promise<Memory> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const memory = visibleIn(await this.memories.findById(id), await this.resolver.resolve(projectSlug));
      assertMayModify(principal, memory);
      await this.hygiene.restore(memory.id);
      return (await this.memories.findById(memory.id)) as Memory;
    });
  }

  /**
   * Candidate pairs among live memories the project sees (its own and tenant-wide ones):
   * equal content up to case and whitespace, or cosine similarity of current vectors of the
   * active model at or above `threshold`. Each pair once, `a < b`, most similar first.
   */
  duplicates(
    projectSlug: string,
    threshold: number,
    limit: number,
  ): Promise<{ pairs: DuplicatePair[]; memories: Memory[] }> {
    return this.tx.run(async () => {
      const scope = projectScope(await this.resolver.resolve(projectSlug));
      return this.findDuplicates(scope, threshold, limit, DUPLICATE_WINDOW);
    }, vectorSearchSettings(DUPLICATE_NEIGHBOURS));
  }

  private async findDuplicates(
    scope: MemoryScope,
    threshold: number,
    limit: number,
    window: number,
  ): Promise<{ pairs: DuplicatePair[]; memories: Memory[] }> {
    const byKey = new Map<string, DuplicatePair>();
    const vectorPairs = await this.hygiene.similarVectorPairs(scope, this.embedder.model, {
      threshold,
      window,
      neighbours: DUPLICATE_NEIGHBOURS,
    });
    for (const pair of vectorPairs) {
      const [a, b] = pair.a < pair.b ? [pair.a, pair.b] : [pair.b, pair.a];
      const known = byKey.get(`${a}/${b}`);
      const similarity = Math.min(1, Number(pair.similarity));
      if (!known || known.similarity < similarity)
        byKey.set(`${a}/${b}`, { a, b, similarity, reason: 'similar_vector' });
    }
    // Equal text outranks whatever the vectors say about the same pair.
    for (const pair of await this.hygiene.sameContentPairs(scope, limit)) {
      byKey.set(`${pair.a}/${pair.b}`, { a: pair.a, b: pair.b, similarity: 1, reason: 'same_content' });
    }
    const pairs = [...byKey.values()]
      .sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a) || x.b.localeCompare(y.b))
      .slice(0, limit);
    const memories = await this.memories.findManyById([...new Set(pairs.flatMap((pair) => [pair.a, pair.b]))]);
    return { pairs, memories: memories.sort((x, y) => x.id.localeCompare(y.id)) };
  }

  /**
   * The periodic scan: candidates over a wider window than an interactive request, stored
   * per project for `scanned` to list. Runs inside the caller's tenant context.
   */
  recordScan(projectSlug: string): Promise<number> {
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const { pairs } = await this.findDuplicates(projectScope(project), SCAN_THRESHOLD, SCAN_LIMIT, SCAN_WINDOW);
      await this.scans.replace(project.id, pairs);
      return pairs.length;
    }, vectorSearchSettings(DUPLICATE_NEIGHBOURS));
  }

  /** The last scan's pairs that are still live, with their memories. */
  scanned(projectSlug: string, limit: number): Promise<{ pairs: DuplicatePair[]; memories: Memory[] }> {
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const pairs = (await this.scans.list(project.id, limit)).map(({ a, b, similarity, reason }) => ({
        a,
        b,
        similarity,
        reason,
      }));
      const memories = await this.memories.findManyById([...new Set(pairs.flatMap((pair) => [pair.a, pair.b]))]);
      return { pairs, memories: memories.sort((x, y) => x.id.localeCompare(y.id)) };
    });
  }

  private async scope(
    projectSlug: string,
    principal: SessionPrincipal,
    options: ScopedMaintenance,
  ): Promise<MemoryScope> {
    assertProjectAccess(principal, projectSlug);
    if (options.includeTenantWide) assertMayWriteTenantWide(principal);
    const project = await this.resolver.resolve(projectSlug);
    return { projectIds: [project.id], includeTenantWide: options.includeTenantWide };
  }
}
