// The per-project coordination channel between agents (issue 14 §3).
export { BroadcastBriefing } from './broadcast-briefing.service';
export { BroadcastPosting } from './broadcast-posting.service';
export { BroadcastReading } from './broadcast-reading.service';
export { ChannelKeyHasher, SCRYPT_MAXMEM, SCRYPT_PARAMS } from './channel-key-hasher.service';
export { ChannelKeys } from './channel-keys.service';
export { CoordinationModule } from './coordination.module';
export { CoordinationHttpModule } from './http/coordination-http.module';
export { CoordinationMcpModule } from './mcp/coordination-mcp.module';
export { filePathProblem } from './contract/broadcast-files';
export { UNVERIFIED_NOTICE } from './contract/broadcast.dto';
export {
  type Broadcast,
  BROADCAST_TYPES,
  type BroadcastType,
  type ChannelBriefing,
  DIRECTING_TYPES,
} from './contract/broadcast.types';
