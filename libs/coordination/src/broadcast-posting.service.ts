import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, roleGrants, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '@cairn/common';
import { ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { broadcastHash, genesisHash } from './broadcast-chain';
import { BroadcastRateLimit } from './broadcast-rate-limit.service';
import { BroadcastsRepository } from './broadcasts.repository';
import { ChannelKeys } from './channel-keys.service';
import { type PostBroadcastInput, postBroadcastSchema } from './contract/broadcast.dto';
import { DIRECTING_TYPES, type PostedBroadcast, SUMMARY_MAX_CHARS } from './contract/broadcast.types';

/** Derive-and-retry rounds before a post gives up on a key that keeps changing. */
const MAX_KEY_ATTEMPTS = 3;

/**
 * broadcast_post: appends a message to the project's channel. In order: who may post this type,
 * the per-agent rate limit, the secret scanner (redact or refuse by the tenant's setting); then
 * one transaction that takes the project's channel lock and reads the key and the chain's head
 * together, checks the key (a cached verdict; otherwise the key is derived outside the
 * transaction, so neither a connection nor the lock waits on scrypt, and the post retried), the
 * reply target, and appends the message with the next sequence number and chain link.
 */
@Injectable()
export class BroadcastPosting {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly broadcasts: BroadcastsRepository,
    private readonly keys: ChannelKeys,
    private readonly rateLimit: BroadcastRateLimit,
    private readonly secrets: SecretRedaction,
  ) {}

  async post(
    projectSlug: string,
    principal: SessionPrincipal,
    input: PostBroadcastInput,
    channelKey?: string,
  ): Promise<PostedBroadcast> {
    assertProjectAccess(principal, projectSlug);
    const parsed = postBroadcastSchema.safeParse(input);
    if (!parsed.success) throw new BadRequestError(`Invalid message: ${parsed.error.issues[0]?.message}`);
    const message = parsed.data;
    if (DIRECTING_TYPES.includes(message.type) && !roleGrants(principal.role, 'broadcast.direct')) {
      throw new ForbiddenError(
        `Only orchestrators and admins post ${DIRECTING_TYPES.join(', ')}; role "${principal.role}" may post STATUS, PROPOSED and DEPENDENCY`,
        'broadcast_type_forbidden',
      );
    }
    await this.rateLimit.spend(principal);
    // Before the transaction: sealing a found secret may read the tenant's data key on its own connection.
    const clean = await this.secrets.redactFields({ summary: message.summary, files: message.files ?? [] });
    const { summary, files } = clean.fields;
    if (summary.length > SUMMARY_MAX_CHARS) {
      throw new BadRequestError(
        `The summary is longer than ${SUMMARY_MAX_CHARS} characters once its secrets are replaced by placeholders`,
        undefined,
        'summary_too_long',
      );
    }
    const author = authorOf(principal);
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.tx.run(async () => {
        const project = await this.projects.resolve(projectSlug);
        await this.broadcasts.lockChannel(project.id);
        const { key, last } = await this.broadcasts.channelHead(project.id);
        // A key whose verdict is not cached is derived outside the transaction, then the post retried.
        if (this.keys.known(project.id, key, channelKey) === 'unknown') return { derive: { project, key } };
        const seq = (last?.seq ?? 0) + 1;
        // Sequence numbers run 1..head without gaps: a reply names one of them.
        if (message.replyTo !== undefined && message.replyTo >= seq) {
          throw new NotFoundError(`Message ${message.replyTo} on this project's channel`);
        }
        const previous = last?.hash ?? genesisHash(project.id);
        const fields = {
          projectId: project.id,
          seq,
          type: message.type,
          summary,
          files,
          replyTo: message.replyTo ?? null,
          assignee: message.assignee ?? null,
          author,
          at: new Date(),
        };
        const stored = await this.broadcasts.insert({
          ...fields,
          prevHash: previous,
          hash: broadcastHash(previous, fields),
        });
        await this.secrets.keep(clean.sealed, {
          projectId: project.id,
          sourceTable: 'broadcasts',
          sourceId: `${project.id}:${seq}`,
          writer: author,
        });
        return { stored };
      });
      if (outcome.stored) return { message: outcome.stored, redacted: clean.redacted };
      // Only a key replaced again between two attempts gets here more than once.
      if (attempt >= MAX_KEY_ATTEMPTS) {
        throw new ConflictError("The channel's key changed while posting; post again", 'channel_key_changed');
      }
      await this.keys.check(outcome.derive.project.id, outcome.derive.key, channelKey);
    }
  }
}
