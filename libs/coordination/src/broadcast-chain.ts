import { createHash } from 'node:crypto';
import { canonicalChainHash } from '@cairn/audit';
import { type Broadcast } from './contract/broadcast.types';

/** The fields a message's hash covers, exactly as its row reads back (`at` in milliseconds). */
export type ChainedBroadcast = Omit<Broadcast, 'prevHash' | 'hash'> & { readonly projectId: string };

/**
 * The previous hash of a project's first message: its own per project (SHA-256 of a label and
 * the project id), so no message or run of messages can be moved from one project's chain to
 * another's and still verify.
 */
export function genesisHash(projectId: string): Buffer {
  return createHash('sha256').update(`cairn.broadcasts.genesis:${projectId}`, 'utf8').digest();
}

/** A message's link: the tenant audit chain's hash (canonical JSON, SHA-256) over these fields. */
export function broadcastHash(previous: Buffer, message: ChainedBroadcast): Buffer {
  return canonicalChainHash(previous, {
    projectId: message.projectId,
    seq: message.seq,
    type: message.type,
    summary: message.summary,
    files: [...message.files],
    replyTo: message.replyTo,
    assignee: message.assignee,
    author: { userId: message.author.userId, agentId: message.author.agentId, tokenId: message.author.tokenId },
    at: message.at.toISOString(),
  });
}
