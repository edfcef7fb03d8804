import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { BadRequestError } from '@cairn/common';
import { ProjectResolver } from '@cairn/projects';
import { type SealedSecret, SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { assertMayUpdate, orNotFound, projectScope, viewerOf } from './memory-access';
import { MemoryShareGrantsRepository } from './memory-share-grants.repository';
import { MemoriesRepository } from './memories.repository';

/** A whole content sealed by SecretRedaction.sealWhole: the placeholder the row keeps, and the original. */
export interface SealedContent {
  readonly placeholder: string;
  readonly sealed: SealedSecret;
}

/** What an update does to a memory's sensitivity, decided from the memory as read before the write. */
export interface SealPlan {
  /** Sensitive after the update. */
  readonly sensitive: boolean;
  /** What the transaction must still find under its lock, or the plan is stale (409). */
  readonly wasSensitive: boolean;
  /** Set when the stored content is sealed (no new content given): it must not have changed either. */
  readonly readHash?: string;
  /** The content to store in its place, when content is sealed by this update. */
  readonly whole?: SealedContent;
}

export function withWhole(sealed: readonly SealedSecret[], whole?: SealedContent): SealedSecret[] {
  return whole ? [...sealed, whole.sealed] : [...sealed];
}

/**
 * `sensitive` on update (issue 12): an update keeps a sensitive memory sensitive unless it says
 * `sensitive: false`, and then it must give new content (the sealed one is never written back
 * in the clear); `sensitive: true` seals the new content or, without one, the stored content.
 * Sealing may read the tenant's data key on a connection of its own, so it happens before the
 * write's transaction, from the memory as read here; the writer checks under its row lock that
 * the memory has not changed since.
 */
@Injectable()
export class SensitiveContent {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly memories: MemoriesRepository,
    private readonly secrets: SecretRedaction,
    private readonly grants: MemoryShareGrantsRepository,
  ) {}

  /**
   * Null when the update touches neither content nor sensitivity (the memory stays as it is).
   * Answers 404 and 403 as the update itself would, before anything about the memory shows.
   */
  async planUpdate(
    projectSlug: string,
    principal: SessionPrincipal,
    id: string,
    input: { content?: string; sensitive?: boolean },
  ): Promise<SealPlan | null> {
    if (input.content === undefined && input.sensitive === undefined) return null;
    const current = await this.tx.run(async () => {
      const scope = projectScope(await this.resolver.resolve(projectSlug), viewerOf(principal));
      const memory = orNotFound(await this.memories.findVisible(id, scope));
      await assertMayUpdate(principal, memory, (memoryId) => this.grants.grantsWrite(memoryId, principal));
      return memory;
    });
    const sensitive = input.sensitive ?? current.sensitive;
    if (current.sensitive && !sensitive && input.content === undefined) {
      throw new BadRequestError(
        'sensitive: false needs new content: the sealed content is never written back in the clear',
        undefined,
        'content_required',
      );
    }
    const sealStored = sensitive && !current.sensitive && input.content === undefined;
    const text = input.content ?? (sealStored ? current.content : undefined);
    const whole = sensitive && text !== undefined ? await this.secrets.sealWhole(text) : undefined;
    return {
      sensitive,
      wasSensitive: current.sensitive,
      readHash: sealStored ? current.contentHash : undefined,
      whole,
    };
  }
}
