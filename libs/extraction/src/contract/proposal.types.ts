import { type MemoryCategory } from '@cairn/memory';

export const PROPOSAL_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export interface Proposal {
  readonly id: string;
  readonly projectId: string;
  readonly requestId: string | null;
  readonly content: string;
  readonly category: MemoryCategory;
  readonly importance: number;
  readonly confidence: number;
  readonly tags: string[];
  readonly keywords: string[];
  readonly status: ProposalStatus;
  readonly memoryId: string | null;
  readonly decidedBy: { readonly userId: string | null; readonly agentId: string | null } | null;
  /** When the conversation it came from took place (null for proposals older than the field). */
  readonly occurredAt: Date | null;
  readonly createdAt: Date;
  readonly decidedAt: Date | null;
}
