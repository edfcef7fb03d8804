import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { agentKeyOf, assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { KnowledgeService } from '@cairn/knowledge';
import { parseInput, type SummarizeInput, summarizeSchema, WM_VALUE_MAX_CHARS } from './contract/working-memory.fields';
import { WorkingMemoryService } from './working-memory.service';
import { LAST_SESSION_SUMMARY_KEY, type SummaryResult } from './contract/working-memory.types';

/** Importance of the `last_session_summary` entry: critical enough to lead the next briefing. */
const SUMMARY_IMPORTANCE = 4;

/**
 * session_summarize: archives the summary in the knowledge base (retention tier `summary`,
 * kept a year by default) and keeps it as the agent's `last_session_summary` working-memory
 * entry, which the next briefing shows.
 */
@Injectable()
export class SessionSummaryService {
  constructor(
    private readonly knowledge: KnowledgeService,
    private readonly workingMemory: WorkingMemoryService,
  ) {}

  async summarize(projectSlug: string, principal: SessionPrincipal, input: SummarizeInput): Promise<SummaryResult> {
    assertProjectAccess(principal, projectSlug);
    const { text, idempotencyKey } = parseInput(summarizeSchema, input);
    const agentKey = agentKeyOf(principal);
    const at = new Date().toISOString();
    // Archived first, in its own transaction, so its embedding job is enqueued after its
    // rows commit; should the working-memory write then fail, the summary is still kept.
    const archived = await this.knowledge.index(projectSlug, principal, {
      // A source of its own per summary: a shared source would make each summary replace the last.
      // With a key, the source is named by it: a retry (a client replaying a queued summary
      // whose first answer was lost) is the same text of the same source, which the knowledge
      // base keeps once and answers with the first copy.
      source: `session-summary:${agentKey}:${idempotencyKey ? keyDigest(idempotencyKey) : at}`,
      title: `Session summary ${at.slice(0, 10)} (${agentKey})`,
      text,
      sourceType: 'internal',
      retentionTier: 'summary',
    });
    const { entry, evicted } = await this.workingMemory.remember(projectSlug, principal, {
      key: LAST_SESSION_SUMMARY_KEY,
      value: clipForWorkingMemory(text, archived.document.id),
      importance: SUMMARY_IMPORTANCE,
    });
    const { id, source, expiresAt } = archived.document;
    // The archived copy holds the whole text: its findings cover the working-memory entry's too.
    return { document: { id, source, expiresAt }, entry, evicted, redacted: archived.redacted };
  }
}

/** Working-memory values hold 4,000 characters; a longer summary points to its archived copy. */
function clipForWorkingMemory(text: string, documentId: string): string {
  if (text.length <= WM_VALUE_MAX_CHARS) return text;
  const pointer = ` … [clipped; full summary in knowledge-base document ${documentId}]`;
  return text.slice(0, WM_VALUE_MAX_CHARS - pointer.length).trimEnd() + pointer;
}

/**
 * How an idempotency key names its summary's source: a digest, as every stored idempotency key is
 * (DESIGN §8): a client may put anything in a key, and the source is stored and shown. (Not
 * labelled "key:": a long hex string beside that word is what secret scanning takes for one.)
 */
function keyDigest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32);
}
