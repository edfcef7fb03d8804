import { Injectable } from '@nestjs/common';
import { type EmbeddingModel } from '@cairn/embeddings';
import { TenantTransaction } from '@cairn/tenancy';
import { type MemoryScope } from './contract/memory-filter';
import {
  type DecayOptions,
  type DuplicateCandidate,
  type DuplicateOptions,
  type PruneOptions,
  type WalkPosition,
} from './contract/memory-maintenance.types';
import { MemoryDuplicatesRepository } from './memory-duplicates.repository';
import { MemoryHygieneRepository } from './memory-hygiene.repository';

/**
 * The statements memory-hygiene's use cases are made of (decay, prune, restore, duplicate
 * candidates, the merge's locks), over the memories a `MemoryScope` admits by memory's one
 * visibility rule. Each call joins the caller's tenant transaction; who may do what is the
 * caller's to check (assertMayModify, the maintainer role).
 */
@Injectable()
export class MemoryMaintenance {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly hygiene: MemoryHygieneRepository,
    private readonly duplicates: MemoryDuplicatesRepository,
  ) {}

  /** One decay step for unused, unpinned, live memories of the scope; how many decayed. */
  decay(scope: MemoryScope, options: DecayOptions): Promise<number> {
    return this.tx.run(() => this.hygiene.decay(scope, options));
  }

  /** Archives (restorably) what stayed unused and doubtful; the archived ids (with `dryRun`, those that would be). */
  prune(scope: MemoryScope, options: PruneOptions): Promise<string[]> {
    return this.tx.run(() => this.hygiene.prune(scope, options));
  }

  /** Un-archives; restoring counts as use. */
  restore(id: string): Promise<void> {
    return this.tx.run(() => this.hygiene.restore(id));
  }

  /** Row locks in id order, so two maintainers merging overlapping memories cannot deadlock. */
  lockForUpdate(ids: readonly string[]): Promise<void> {
    return this.tx.run(() => this.hygiene.lockForUpdate(ids));
  }

  /** Up to `size` live memories of the scope from `from` (inclusive) on, newest first. */
  walk(scope: MemoryScope, from: WalkPosition | undefined, size: number): Promise<WalkPosition[]> {
    return this.tx.run(() => this.duplicates.walk(scope, from, size));
  }

  /** Each of `ids`' duplicate candidates in the scope: equal normalised text, nearest vectors of `model`. */
  partners(
    scope: MemoryScope,
    model: EmbeddingModel,
    ids: readonly string[],
    options: DuplicateOptions,
  ): Promise<DuplicateCandidate[]> {
    return this.tx.run(() => this.duplicates.partners(scope, model, ids, options));
  }
}
