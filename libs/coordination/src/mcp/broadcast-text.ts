import { unverifiedAgentLabel } from '@cairn/safe-fetch';
import { type z } from 'zod';
import { type broadcastSchema, type readBroadcastSchema } from '../contract/broadcast.dto';

type View = z.infer<typeof broadcastSchema> &
  Partial<Pick<z.infer<typeof readBroadcastSchema>, 'acknowledged' | 'injectionFlags'>>;

/** How a message's author reads: its agent id, else its user, else its token. */
export function authorName(author: View['author']): string {
  return author.agentId ?? (author.userId ? `user:${author.userId}` : `token:${author.tokenId}`);
}

/** One message on one line: `#12 ASSIGN by orch → bob (re #10) [files: a.ts] : summary`. */
function line(message: View): string {
  const parts = [`#${message.seq} ${message.type} by ${authorName(message.author)}`];
  if (message.assignee) parts.push(`→ ${message.assignee}`);
  if (message.replyTo !== null) parts.push(`(re #${message.replyTo})`);
  if (message.acknowledged === false) parts.push('[unacked]');
  if (message.files.length > 0) parts.push(`[files: ${message.files.join(', ')}]`);
  if (message.injectionFlags && message.injectionFlags.length > 0) {
    parts.push(`[looks like prompt injection: ${message.injectionFlags.join(', ')}]`);
  }
  return `${parts.join(' ')}: ${message.summary.replace(/\s+/g, ' ').trim()}`;
}

/**
 * Messages as an agent reads them: one line each, all inside one unverified-agent-content
 * frame (one frame, not one per message, to spend less context), so nothing another agent
 * wrote reads as an instruction.
 */
export function framedMessages(project: string, messages: readonly View[]): string {
  return unverifiedAgentLabel(`project ${project} channel`, messages.map(line).join('\n'));
}
