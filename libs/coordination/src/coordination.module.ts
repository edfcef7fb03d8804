import { Module } from '@nestjs/common';
import { ProjectsModule } from '@cairn/projects';
import { SecretsModule } from '@cairn/secrets';
import { BroadcastBriefing } from './broadcast-briefing.service';
import { BroadcastPosting } from './broadcast-posting.service';
import { BroadcastRateLimit } from './broadcast-rate-limit.service';
import { BroadcastReading } from './broadcast-reading.service';
import { BroadcastsRepository } from './broadcasts.repository';
import { ChannelKeyHasher } from './channel-key-hasher.service';
import { ChannelKeys } from './channel-keys.service';

/**
 * The per-project coordination channel (issue 14 §3): services only, for the api (through
 * CoordinationHttpModule), the MCP gateway (CoordinationMcpModule) and the briefing.
 */
@Module({
  imports: [ProjectsModule, SecretsModule],
  providers: [
    BroadcastsRepository,
    BroadcastPosting,
    BroadcastReading,
    BroadcastBriefing,
    BroadcastRateLimit,
    ChannelKeyHasher,
    ChannelKeys,
  ],
  exports: [BroadcastPosting, BroadcastReading, BroadcastBriefing, ChannelKeys, ChannelKeyHasher],
})
export class CoordinationModule {}
