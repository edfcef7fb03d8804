import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { ConflictError, NotFoundError } from '@cairn/common';
import { type ContradictionWarning, type MemoryCategory, MemoryWriter } from '@cairn/memory';
import { ProjectResolver } from '@cairn/projects';
import { type SealedSecret, SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { type Proposal, type ProposalStatus } from './contract/proposal.types';
import { type FactCandidate } from './fact-candidate';
import { ProposalsRepository } from './proposals.repository';

/** Every memory made from a transcript carries this tag, whoever accepted it. */
export const EXTRACTED_TAG = 'extracted';
/** A proposal a member has read and accepted is as trustworthy as a memory stored by hand. */
const ACCEPTED_CONFIDENCE = 0.9;

export interface ProposalEdits {
  readonly content?: string;
  readonly category?: MemoryCategory;
  readonly importance?: number;
  readonly keywords?: readonly string[];
  readonly tags?: readonly string[];
  readonly occurredAt?: Date;
}

export interface ProposalPage {
  readonly items: Proposal[];
  readonly nextCursor: string | null;
}

export function withExtractedTag(tags: readonly string[]): string[] {
  return [...new Set([...tags, EXTRACTED_TAG])];
}

/** Reviewing extracted proposals: accepting one stores it as a memory through MemoryWriter. */
@Injectable()
export class ProposalsService {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly proposals: ProposalsRepository,
    private readonly writer: MemoryWriter,
    private readonly secrets: SecretRedaction,
  ) {}

  /**
   * Stores extracted candidates as pending proposals, their content, tags and keywords through
   * SecretRedaction first (a proposal is stored text like any memory), inside the caller's
   * tenant transaction. Returns the ids of the proposals that were new.
   */
  async proposeExtracted(
    projectId: string,
    requestId: string,
    candidates: readonly FactCandidate[],
    options: { confidence: number; occurredAt: Date; author: SessionPrincipal },
  ): Promise<string[]> {
    const sealed = new Map<string, SealedSecret[]>();
    const clean: (FactCandidate & { id: string; confidence: number })[] = [];
    for (const candidate of candidates) {
      const id = randomUUID();
      const redaction = await this.secrets.redact([candidate.content, ...candidate.tags, ...candidate.keywords]);
      const [content, ...labels] = redaction.texts;
      const tags = labels.slice(0, candidate.tags.length);
      const keywords = labels.slice(candidate.tags.length);
      clean.push({ ...candidate, content, tags, keywords, id, confidence: options.confidence });
      sealed.set(id, redaction.sealed);
    }
    return this.tx.run(async () => {
      const ids = await this.proposals.insertNew(projectId, requestId, clean, options.occurredAt);
      for (const id of ids) {
        await this.secrets.keep(sealed.get(id) ?? [], {
          projectId,
          sourceTable: 'memory_proposals',
          sourceId: id,
          writer: authorOf(options.author),
        });
      }
      return ids;
    });
  }

  list(projectSlug: string, query: { status: ProposalStatus; limit: number; cursor?: string }): Promise<ProposalPage> {
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const rows = await this.proposals.list(project.id, query.status, query.limit, query.cursor);
      const items = rows.slice(0, query.limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > query.limit && last ? last.id : null };
    });
  }

  /**
   * Stores the proposal (with the reviewer's edits) as a memory authored by the reviewer, who
   * vouched for it, and links the proposal to it. One transaction: the memory and the
   * decision commit together, and the memory's embedding job follows the commit. The
   * reviewer's edits pass MemoryWriter's checks like any stored memory (the content limit
   * included): refused, nothing is stored and the proposal stays pending.
   */
  accept(
    projectSlug: string,
    principal: SessionPrincipal,
    id: string,
    edits: ProposalEdits,
  ): Promise<{ proposal: Proposal; warnings: ContradictionWarning[] }> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const proposal = await this.pending(projectSlug, id);
      const { memory, warnings } = await this.writer.store(projectSlug, principal, {
        content: edits.content ?? proposal.content,
        category: edits.category ?? proposal.category,
        importance: edits.importance ?? proposal.importance,
        keywords: edits.keywords ?? proposal.keywords,
        tags: withExtractedTag(edits.tags ?? proposal.tags),
        confidence: Math.max(proposal.confidence, ACCEPTED_CONFIDENCE),
        source: null,
        pinned: false,
        scope: 'project',
        supersedes: [],
        occurredAt: edits.occurredAt ?? proposal.occurredAt ?? undefined,
      });
      const decided = await this.proposals.decide(proposal.id, {
        status: 'accepted',
        memoryId: memory.id,
        by: authorOf(principal),
      });
      return { proposal: decided, warnings };
    });
  }

  reject(projectSlug: string, principal: SessionPrincipal, id: string): Promise<Proposal> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const proposal = await this.pending(projectSlug, id);
      return this.proposals.decide(proposal.id, { status: 'rejected', memoryId: null, by: authorOf(principal) });
    });
  }

  /** The proposal, locked until the decision commits; a second decision is a conflict. */
  private async pending(projectSlug: string, id: string): Promise<Proposal> {
    const project = await this.projects.resolve(projectSlug);
    const proposal = await this.proposals.findForUpdate(project.id, id);
    if (!proposal) throw new NotFoundError('Proposal');
    if (proposal.status !== 'pending') {
      throw new ConflictError(`This proposal was already ${proposal.status}`, 'proposal_decided');
    }
    return proposal;
  }
}
