import { Injectable } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import {
  assertMayModify,
  type DecayOptions,
  MemoryMaintenance,
  type PruneOptions,
  assertMayWriteTenantWide,
  type Memory,
  MemoryRecords,
  type MemoryScope,
  type MemoryViewer,
  orNotFound,
  projectScope,
  SYSTEM_VIEWER,
  viewerOf,
} from '@cairn/memory';
import { type DuplicatePair } from './contract/memory-hygiene.types';
import {
  DUPLICATE_PAGE_MEMORIES,
  duplicateSearchSettings,
  DuplicateFinder,
  type DuplicatePage,
} from './duplicate-finder.service';
import { DuplicateScanRepository } from './duplicate-scan.repository';

export interface ScopedMaintenance {
  /** Also maintain tenant-wide memories (needs a token scoped to every project). */
  readonly includeTenantWide: boolean;
}

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
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly hygiene: MemoryMaintenance,
    private readonly memories: MemoryRecords,
    private readonly scans: DuplicateScanRepository,
    private readonly finder: DuplicateFinder,
  ) {}

  decay(projectSlug: string, principal: SessionPrincipal, options: DecayOptions & ScopedMaintenance): Promise<number> {
    return this.tx.run(async () => this.hygiene.decay(await this.scope(projectSlug, principal, options), options));
  }

  /** The scheduled decay: every project of the tenant and its tenant-wide memories. */
  decayAll(options: DecayOptions): Promise<number> {
    return this.tx.run(async () => {
      const projects = await this.resolver.resolveMany('*');
      return this.hygiene.decay(
        { projectIds: projects.map((project) => project.id), includeTenantWide: true, viewer: SYSTEM_VIEWER },
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
      const scope = projectScope(await this.resolver.resolve(projectSlug), viewerOf(principal));
      const memory = orNotFound(await this.memories.findVisible(id, scope));
      assertMayModify(principal, memory);
      await this.hygiene.restore(memory.id);
      return (await this.memories.findById(memory.id)) as Memory;
    });
  }

  /**
   * A page of candidate pairs among live memories the project sees (its own and tenant-wide
   * ones): equal content up to case and whitespace, or cosine similarity of current vectors of
   * the active model at or above `threshold`. Each pair once over the pages, `a < b`; see
   * DuplicateFinder for what a page examines.
   */
  duplicates(
    projectSlug: string,
    viewer: MemoryViewer,
    options: { threshold: number; limit: number; cursor?: string },
  ): Promise<DuplicatePage & { memories: Memory[] }> {
    return this.tx.run(async () => {
      const scope = projectScope(await this.resolver.resolve(projectSlug), viewer);
      const page = await this.finder.page(scope, options);
      return { ...page, memories: await this.memoriesOf(page.pairs, scope) };
    }, duplicateSearchSettings());
  }

  /**
   * The periodic scan: pages over a wider stretch of the walk than one request, at a slightly
   * looser threshold, stored per project for `scanned` to list. Runs inside the caller's
   * tenant context.
   */
  recordScan(projectSlug: string): Promise<number> {
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const pairs: DuplicatePair[] = [];
      let cursor: string | undefined;
      for (let examined = 0; examined < SCAN_WINDOW && pairs.length < SCAN_LIMIT; examined += DUPLICATE_PAGE_MEMORIES) {
        // A job: every memory of the project is compared; `scanned` shows each reader its part.
        const page = await this.finder.page(projectScope(project, SYSTEM_VIEWER), {
          threshold: SCAN_THRESHOLD,
          limit: SCAN_LIMIT - pairs.length,
          cursor,
        });
        pairs.push(...page.pairs);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      pairs.sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
      await this.scans.replace(project.id, pairs);
      return pairs.length;
    }, duplicateSearchSettings());
  }

  /** The last scan's pairs that are still live, with their memories. */
  scanned(projectSlug: string, viewer: MemoryViewer, limit: number): Promise<DuplicatePage & { memories: Memory[] }> {
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const stored = await this.scans.list(project.id);
      // Live: neither memory deleted nor superseded since the scan (merged ones are superseded).
      const named = [...new Set(stored.flatMap((pair) => [pair.a, pair.b]))];
      const live = new Set(
        (await this.memories.findManyById(named)).filter((m) => m.supersededBy === null).map((m) => m.id),
      );
      const pairs = stored
        .filter((pair) => live.has(pair.a) && live.has(pair.b))
        .slice(0, limit)
        .map(({ a, b, similarity, reason }) => ({ a, b, similarity, reason }));
      const memories = await this.memoriesOf(pairs, projectScope(project, viewer));
      const seen = new Set(memories.map((memory) => memory.id));
      // A pair with a memory the reader may not see is not shown at all: it would name it.
      const shown = pairs.filter((pair) => seen.has(pair.a) && seen.has(pair.b));
      return {
        pairs: shown,
        nextCursor: null,
        memories: memories.filter((m) => shown.some((p) => p.a === m.id || p.b === m.id)),
      };
    });
  }

  /** Every memory named in the pairs that `scope` may see, by id. */
  private async memoriesOf(pairs: readonly DuplicatePair[], scope: MemoryScope): Promise<Memory[]> {
    const ids = [...new Set(pairs.flatMap((pair) => [pair.a, pair.b]))];
    const memories = await this.memories.findManyVisible(ids, scope);
    return memories.sort((x, y) => x.id.localeCompare(y.id));
  }

  private async scope(
    projectSlug: string,
    principal: SessionPrincipal,
    options: ScopedMaintenance,
  ): Promise<MemoryScope> {
    assertProjectAccess(principal, projectSlug);
    if (options.includeTenantWide) assertMayWriteTenantWide(principal);
    const project = await this.resolver.resolve(projectSlug);
    return { projectIds: [project.id], includeTenantWide: options.includeTenantWide, viewer: viewerOf(principal) };
  }
}
