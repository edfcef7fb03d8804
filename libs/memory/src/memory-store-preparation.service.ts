import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { type SecretTypeCount } from '@cairn/secret-detection';
import { type SealedSecret, SecretRedaction } from '@cairn/secrets';
import { ContentLimit } from './content-limit.service';
import { type StoreMemoryInput } from './contract/memory-write.types';
import { storeIntent, type StoreIntent } from './memory-store-intent';
import { redactMemoryTexts } from './memory-text-redaction';
import { withWhole } from './sensitive-content.service';

/** A store ready to be written: checked, its text redacted or sealed, its id chosen. */
export interface PreparedStore extends StoreIntent {
  /** The new memory's id, chosen before anything is written: the later steps all name it. */
  readonly id: string;
  /**
   * Content, tags, keywords and source as they are stored: secrets replaced by placeholders, or
   * the whole content sealed.
   */
  readonly fields: Pick<StoreMemoryInput, 'content' | 'tags' | 'keywords' | 'source'>;
  /** The originals behind the placeholders, kept sealed beside the row (SecretRedaction.keep). */
  readonly sealed: SealedSecret[];
  /** What was redacted (types and counts), for the caller. */
  readonly redacted: SecretTypeCount[];
}

/**
 * The store pipeline's first step, before any transaction: the project scope, the content
 * limit and the store's own refusals, then secret redaction of content, tags, keywords and the
 * source (or
 * the whole content sealed when it is sensitive). Sealing may read the tenant's data key on a
 * connection of its own, which is why it happens here and not in the write.
 */
@Injectable()
export class MemoryStorePreparation {
  constructor(
    private readonly limit: ContentLimit,
    private readonly secrets: SecretRedaction,
  ) {}

  async prepare(
    projectSlug: string,
    principal: SessionPrincipal,
    input: StoreMemoryInput,
    idempotencyKey?: string,
  ): Promise<PreparedStore> {
    assertProjectAccess(principal, projectSlug);
    this.limit.check(input.content);
    const intent = storeIntent(projectSlug, principal, input, idempotencyKey);
    const whole = intent.sensitive ? await this.secrets.sealWhole(input.content) : undefined;
    const clean = await redactMemoryTexts(this.secrets, input, whole);
    const { content, tags, keywords, source } = clean.fields;
    return {
      ...intent,
      id: randomUUID(),
      fields: { content, tags, keywords, source },
      sealed: withWhole(clean.sealed, whole),
      redacted: clean.redacted,
    };
  }
}
