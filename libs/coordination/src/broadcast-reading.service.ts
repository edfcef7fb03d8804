import { Injectable } from '@nestjs/common';
import { agentKeyOf, assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { chainLinkProblem } from '@cairn/audit';
import { NotFoundError } from '@cairn/common';
import { ProjectResolver } from '@cairn/projects';
import { flagPromptInjection } from '@cairn/safe-fetch';
import { TenantTransaction } from '@cairn/tenancy';
import { broadcastHash, genesisHash } from './broadcast-chain';
import { BroadcastsRepository } from './broadcasts.repository';
import { type ReadFilter } from './contract/broadcast.dto';
import { type AckResult, type BroadcastPage, type ChannelVerification } from './contract/broadcast.types';

/** Messages checked per round trip while verifying. */
const VERIFY_PAGE = 2_000;

/** broadcast_read, broadcast_ack and broadcast_verify: the channel as its readers use it. */
@Injectable()
export class BroadcastReading {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly broadcasts: BroadcastsRepository,
  ) {}

  /** Oldest first after `filter.after`; `unacknowledged` keeps those the caller has not acknowledged. */
  async read(projectSlug: string, principal: SessionPrincipal, filter: ReadFilter): Promise<BroadcastPage> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const rows = await this.broadcasts.page(project.id, agentKeyOf(principal), {
        after: filter.after,
        types: filter.types && filter.types.length > 0 ? filter.types : null,
        assignee: filter.assignee ?? null,
        unacknowledged: filter.unacknowledged ?? false,
        limit: filter.limit,
      });
      const items = rows
        .slice(0, filter.limit)
        .map((row) => ({ ...row, injectionFlags: flagPromptInjection(row.summary) }));
      const more = rows.length > filter.limit;
      return {
        items,
        nextAfter: more ? items[items.length - 1].seq : null,
        head: await this.broadcasts.head(project.id),
      };
    });
  }

  /** Records that the caller (its agent, else user, else token) has read these messages; 404 naming any that do not exist. */
  async acknowledge(projectSlug: string, principal: SessionPrincipal, seqs: readonly number[]): Promise<AckResult> {
    assertProjectAccess(principal, projectSlug);
    const unique = [...new Set(seqs)].sort((a, b) => a - b);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const { existing, recorded } = await this.broadcasts.acknowledge(project.id, agentKeyOf(principal), unique);
      const missing = unique.filter((seq) => !existing.includes(seq));
      if (missing.length > 0)
        throw new NotFoundError(`Message ${missing.slice(0, 10).join(', ')} on this project's channel`);
      const fresh = new Set(recorded);
      return { acknowledged: unique.filter((seq) => fresh.has(seq)), already: unique.filter((seq) => !fresh.has(seq)) };
    });
  }

  /**
   * Walks the project's chain from its genesis, recomputing every link: the first message whose
   * fields no longer match its hash, or that does not follow the one before it (or whose sequence
   * number skips), is named with the reason, as the tenant audit log's verify does.
   */
  async verify(projectSlug: string, principal: SessionPrincipal): Promise<ChannelVerification> {
    assertProjectAccess(principal, projectSlug);
    const project = await this.tx.run(() => this.projects.resolve(projectSlug));
    let previous = genesisHash(project.id);
    let entries = 0;
    for (;;) {
      // A transaction per page: a long channel does not hold one connection for the whole walk.
      const rows = await this.tx.run(() => this.broadcasts.chainPage(project.id, entries, VERIFY_PAGE));
      for (const row of rows) {
        const reason =
          row.seq !== entries + 1
            ? `does not follow message ${entries} (a message is missing before it)`
            : chainLinkProblem(previous, { prevHash: row.prevHashBytes, hash: row.hashBytes }, () =>
                broadcastHash(previous, { ...row, projectId: project.id }),
              );
        if (reason) return { valid: false, entries, head: null, firstInvalidSeq: row.seq, reason };
        previous = row.hashBytes;
        entries += 1;
      }
      if (rows.length < VERIFY_PAGE) break;
    }
    return {
      valid: true,
      entries,
      head: entries === 0 ? null : previous.toString('hex'),
      firstInvalidSeq: null,
      reason: null,
    };
  }
}
