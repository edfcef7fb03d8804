/** Message types of the coordination channel (DESIGN §4), as the `broadcasts.type` check has them. */
export const BROADCAST_TYPES = ['ASSIGN', 'MERGE', 'REJECT', 'REVISE', 'STATUS', 'PROPOSED', 'DEPENDENCY'] as const;
export type BroadcastType = (typeof BROADCAST_TYPES)[number];

/** Types that direct other agents' work: only orchestrators and admins post them (`broadcast.direct`). */
export const DIRECTING_TYPES: readonly BroadcastType[] = ['ASSIGN', 'MERGE', 'REJECT', 'REVISE'];

export const SUMMARY_MAX_CHARS = 1_000;
export const FILES_MAX = 20;
export const FILE_PATH_MAX_CHARS = 512;
export const READ_DEFAULT_LIMIT = 50;
export const READ_MAX_LIMIT = 200;
export const ACK_MAX_SEQS = 200;
export const CHANNEL_KEY_MIN_CHARS = 16;
/** Keys longer than this are never set, so a longer one presented is simply wrong (and never hashed twice). */
export const CHANNEL_KEY_MAX_CHARS = 1_024;

/** Who wrote a message: the token's user and agent id, and the token itself. */
export interface BroadcastAuthor {
  readonly userId: string | null;
  readonly agentId: string | null;
  readonly tokenId: string;
}

/** One stored message, as its row reads back (the hash fields as hex). */
export interface Broadcast {
  readonly seq: number;
  readonly type: BroadcastType;
  readonly summary: string;
  readonly files: readonly string[];
  readonly replyTo: number | null;
  readonly assignee: string | null;
  readonly author: BroadcastAuthor;
  readonly at: Date;
  readonly prevHash: string;
  readonly hash: string;
}

/** A message as a reader gets it: whether the reader has acknowledged it, and any injection flags. */
export interface ReadBroadcast extends Broadcast {
  readonly acknowledged: boolean;
  /** Prompt-injection phrasings the summary matches (flagged, never removed). */
  readonly injectionFlags: readonly string[];
}

export interface BroadcastPage {
  readonly items: readonly ReadBroadcast[];
  /** Pass as `after` for the next page; null when this page reached the end. */
  readonly nextAfter: number | null;
  /** The channel's newest sequence number (0 when empty). */
  readonly head: number;
}

export interface PostedBroadcast {
  readonly message: Broadcast;
  /** What the secret scanner redacted from the summary (types and counts, never values). */
  readonly redacted: readonly { readonly type: string; readonly count: number }[];
}

export interface AckResult {
  /** Sequence numbers acknowledged by this call. */
  readonly acknowledged: number[];
  /** Sequence numbers the caller had already acknowledged. */
  readonly already: number[];
}

export interface ChannelVerification {
  readonly valid: boolean;
  /** Messages checked: all of them when valid, those before the first bad one otherwise. */
  readonly entries: number;
  /** Hash of the newest message (hex): record it elsewhere to detect a truncated tail later. */
  readonly head: string | null;
  readonly firstInvalidSeq: number | null;
  readonly reason: string | null;
}

export interface ChannelKeyState {
  readonly keySet: boolean;
  readonly keySetAt: Date | null;
}

/** What recall_context shows of the channel: messages for the caller it has not acknowledged, and who is doing what. */
export interface ChannelBriefing {
  readonly addressedToYou: readonly Broadcast[];
  /** Unacknowledged messages addressed to the caller beyond those listed. */
  readonly moreAddressedToYou: number;
  readonly latestStatus: readonly Broadcast[];
}
