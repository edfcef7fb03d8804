import { Injectable } from '@nestjs/common';
import { agentKeyOf, type SessionPrincipal } from '@cairn/access';
import { BroadcastsRepository } from './broadcasts.repository';
import { type ChannelBriefing } from './contract/broadcast.types';

/** Read for a briefing, before its budget decides how many are shown. */
const ADDRESSED_READ = 10;
const STATUS_AUTHORS_READ = 10;
/** STATUS messages looked through for each author's latest: bounded, however long the channel. */
const STATUS_SCAN = 500;

/**
 * What recall_context shows of the coordination channel: the unacknowledged messages addressed
 * to the calling agent (by its agent id) and each agent's latest STATUS. Called inside the
 * briefing's tenant transaction, with the project already resolved.
 */
@Injectable()
export class BroadcastBriefing {
  constructor(private readonly broadcasts: BroadcastsRepository) {}

  async gather(projectId: string, principal: SessionPrincipal): Promise<ChannelBriefing> {
    const addressed = principal.agentId
      ? await this.broadcasts.unacknowledgedFor(projectId, principal.agentId, agentKeyOf(principal), ADDRESSED_READ)
      : { items: [], total: 0 };
    return {
      addressedToYou: addressed.items,
      moreAddressedToYou: Math.max(0, addressed.total - addressed.items.length),
      latestStatus: await this.broadcasts.latestStatus(projectId, STATUS_SCAN, STATUS_AUTHORS_READ),
    };
  }
}
