import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, roleGrants, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, ForbiddenError, NotFoundError } from '@cairn/common';
import { ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { broadcastHash, genesisHash } from './broadcast-chain';
import { BroadcastRateLimit } from './broadcast-rate-limit.service';
import { BroadcastsRepository, type StoredKey } from './broadcasts.repository';
import { ChannelKeys } from './channel-keys.service';
import { type PostBroadcastInput, postBroadcastSchema } from './contract/broadcast.dto';
import { DIRECTING_TYPES, type PostedBroadcast, SUMMARY_MAX_CHARS } from './contract/broadcast.types';

/**
 * broadcast_post: appends a message to the project's channel. In order: who may post this type,
 * the per-agent rate limit, the channel key (outside any transaction: scrypt holds no
 * connection), the secret scanner (redact or refuse by the tenant's setting); then, under the
 * project's channel lock, the reply target, the next sequence number and the chain link.
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
    const { project, key } = await this.tx.run(async () => {
      const found = await this.projects.resolve(projectSlug);
      return { project: found, key: await this.broadcasts.key(found.id) };
    });
    await this.keys.check(project.id, key, channelKey);
    const clean = await this.secrets.redact([message.summary]);
    const summary = clean.texts[0];
    if (summary.length > SUMMARY_MAX_CHARS) {
      throw new BadRequestError(
        `The summary is longer than ${SUMMARY_MAX_CHARS} characters once its secrets are replaced by placeholders`,
        undefined,
        'summary_too_long',
      );
    }
    const author = authorOf(principal);
    const stored = await this.tx.run(async () => {
      await this.broadcasts.lockChannel(project.id);
      // The key verified above must still be the channel's: a change in between refuses the post.
      const current = await this.broadcasts.key(project.id);
      if (!sameKey(current, key)) await this.keys.check(project.id, current, channelKey);
      if (message.replyTo !== undefined && !(await this.broadcasts.exists(project.id, message.replyTo))) {
        throw new NotFoundError(`Message ${message.replyTo} on this project's channel`);
      }
      const last = await this.broadcasts.lastLink(project.id);
      const previous = last?.hash ?? genesisHash(project.id);
      const fields = {
        projectId: project.id,
        seq: (last?.seq ?? 0) + 1,
        type: message.type,
        summary,
        files: message.files ?? [],
        replyTo: message.replyTo ?? null,
        assignee: message.assignee ?? null,
        author,
        at: new Date(),
      };
      const inserted = await this.broadcasts.insert({
        ...fields,
        prevHash: previous,
        hash: broadcastHash(previous, fields),
      });
      await this.secrets.keep(clean.sealed, {
        projectId: project.id,
        sourceTable: 'broadcasts',
        sourceId: `${project.id}:${inserted.seq}`,
        writer: author,
      });
      return inserted;
    });
    return { message: stored, redacted: clean.redacted };
  }
}

function sameKey(a: StoredKey | null, b: StoredKey | null): boolean {
  return a === null || b === null ? a === b : a.hash.equals(b.hash);
}
