import { Inject, Injectable, Optional } from '@nestjs/common';
import { agentKeyOf, assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type Broadcast, BroadcastBriefing, type ChannelBriefing } from '@cairn/coordination';
import { EMBEDDER, type Embedder } from '@cairn/embeddings';
import { JobQueue } from '@cairn/jobs';
import { MemoryDigest, projectScope, type RecentMemory, viewerOf } from '@cairn/memory';
import { type ReviewOutcome, ReviewNotices } from '@cairn/memory-review';
import { ProjectCards, type ProjectCardView } from '@cairn/project-card';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { type BriefingMaterial, fitBriefing } from './briefing-budget';
import { renderBriefingText } from './briefing-text';
import { BriefingVisits, type LastSeen } from './briefing-visits.service';
import { type Briefing, type ChannelItem, type SystemStatus, type TimeAnchor } from './contract/briefing.types';
import { SessionEventsRepository } from './session-events.repository';
import { humanDuration, localTime } from './time-anchor';
import { type ContextOptions, contextOptionsSchema, parseInput } from './contract/working-memory.fields';
import { WorkingMemoryRepository } from './working-memory.repository';
import { LAST_SESSION_SUMMARY_KEY, type SessionEvent, type WorkingMemoryEntry } from './contract/working-memory.types';

/** How many new memories and recent events are read; the budget decides how many are shown. */
const NEW_MEMORIES_READ = 20;
const RECENT_EVENTS_READ = 20;
const MEMORY_CONTENT_CHARS = 300;
const REVIEW_OUTCOMES_READ = 20;

interface Gathered {
  readonly project: string;
  readonly now: Date;
  readonly lastSeen: LastSeen | null;
  readonly entries: WorkingMemoryEntry[];
  readonly newMemories: RecentMemory[];
  readonly memoriesSince: number;
  readonly eventsSince: number;
  readonly events: SessionEvent[];
  readonly withoutVector: number;
  readonly reviewOutcomes: ReviewOutcome[];
  readonly channel: ChannelBriefing;
  readonly projectCard: ProjectCardView;
}

/**
 * recall_context: the briefing for an agent's first turn in a session, in one call and
 * within a token budget (DESIGN §1, §4). Reading it records the visit, so the next briefing
 * reports what changed since this one.
 */
@Injectable()
export class BriefingService {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly workingMemory: WorkingMemoryRepository,
    private readonly events: SessionEventsRepository,
    private readonly visits: BriefingVisits,
    private readonly digest: MemoryDigest,
    private readonly jobs: JobQueue,
    private readonly reviewNotices: ReviewNotices,
    private readonly channel: BroadcastBriefing,
    private readonly cards: ProjectCards,
    @Optional() @Inject(EMBEDDER) private readonly embedder?: Embedder,
  ) {}

  async context(projectSlug: string, principal: SessionPrincipal, options: ContextOptions = {}): Promise<Briefing> {
    assertProjectAccess(principal, projectSlug);
    const { timezone = 'UTC', budgetTokens = this.config.memory.briefingTokenBudget } = parseInput(
      contextOptionsSchema,
      options,
    );
    const agentKey = agentKeyOf(principal);
    // Redis is asked alongside, not inside, the transaction: no pooled connection waits on it.
    const pending = this.jobs.pendingCount('embeddings');
    const gathered = await this.tx.run(() => this.gather(projectSlug, agentKey, principal));
    const material: BriefingMaterial = {
      project: gathered.project,
      agent: agentKey,
      timeAnchor: timeAnchor(gathered, timezone),
      workingMemory: {
        entries: gathered.entries
          .filter((entry) => entry.key !== LAST_SESSION_SUMMARY_KEY)
          .map((entry) => ({
            key: entry.key,
            value: entry.value,
            importance: entry.importance,
            updatedAt: entry.updatedAt.toISOString(),
          })),
        cap: this.config.memory.workingMemoryCap,
      },
      lastSummary: lastSummary(gathered.entries),
      newMemories: gathered.newMemories.map((memory) => ({
        id: memory.id,
        content: clip(memory.content, MEMORY_CONTENT_CHARS),
        category: memory.category,
        importance: memory.importance,
        scope: memory.scope,
        agentId: memory.agentId,
        createdAt: memory.createdAt.toISOString(),
      })),
      recentEvents: gathered.events.map((event) => ({
        id: event.id,
        kind: event.kind,
        summary: event.summary,
        agent: event.agent,
        createdAt: event.createdAt.toISOString(),
        new: gathered.lastSeen !== null && event.createdAt > gathered.lastSeen.at,
      })),
      channel: {
        addressedToYou: gathered.channel.addressedToYou.map(channelItem),
        moreAddressedToYou: gathered.channel.moreAddressedToYou,
        latestStatus: gathered.channel.latestStatus.map(channelItem),
      },
      status: this.status(await pending, gathered.withoutVector),
      reviewOutcomes: gathered.reviewOutcomes.map((outcome) => ({
        reviewId: outcome.id,
        kind: outcome.kind,
        status: outcome.status === 'rejected' ? 'rejected' : 'approved',
        memoryId: outcome.memoryId,
        toScope: outcome.toScope,
        resolution: outcome.resolution,
        reason: outcome.decisionReason === null ? null : clip(outcome.decisionReason, MEMORY_CONTENT_CHARS),
        decidedAt: outcome.decidedAt.toISOString(),
      })),
      projectCard: gathered.projectCard,
    };
    const fitted = fitBriefing(material, budgetTokens);
    // Told once: only what the budget kept; the rest waits for the next briefing.
    await this.reviewNotices.markTold((fitted.reviewOutcomes ?? []).map((outcome) => outcome.reviewId));
    return { ...fitted, text: renderBriefingText(fitted) };
  }

  /** Every read in one transaction (one consistent snapshot), then the visit is recorded. */
  private async gather(projectSlug: string, agentKey: string, principal: SessionPrincipal): Promise<Gathered> {
    const project = await this.projects.resolve(projectSlug);
    // New memories as the agent may see them: others' private ones are not news to it.
    const seen = projectScope(project, viewerOf(principal));
    const lastSeen = await this.visits.lastSeen(project.id, agentKey);
    const since = lastSeen?.at;
    const gathered = {
      project: project.slug,
      lastSeen,
      entries: await this.workingMemory.list(project.id, agentKey),
      newMemories: since ? await this.digest.since(seen, since, NEW_MEMORIES_READ) : [],
      memoriesSince: since ? await this.digest.countSince(seen, since) : 0,
      eventsSince: since ? await this.events.countSince(project.id, since) : 0,
      events: await this.events.recent(project.id, { limit: RECENT_EVENTS_READ }),
      withoutVector: await this.digest.withoutVector(project.id, this.embedder?.model.id ?? null),
      reviewOutcomes: await this.reviewNotices.untold(project.id, authorOf(principal), REVIEW_OUTCOMES_READ),
      channel: await this.channel.gather(project.id, principal),
      projectCard: await this.cards.current(project.slug, principal),
    };
    return { ...gathered, now: await this.visits.recordVisit(project.id, agentKey) };
  }

  private status(pendingJobs: number | null, withoutVector: number): SystemStatus {
    const model = this.embedder?.model;
    const notes: string[] = [];
    if (!model) notes.push('no embedder is configured: search runs keyword-only');
    else if (model.builtIn)
      notes.push('vectors come from the built-in hash embedder: lexical similarity, not semantic');
    if (pendingJobs === null) notes.push('Redis did not answer: the number of pending embedding jobs is unknown');
    if (withoutVector > 0) {
      notes.push(`${withoutVector} memories have no current vector yet: they are found by keyword until embedded`);
    }
    return {
      searchMode: model ? 'hybrid' : 'keyword',
      embeddingModel: model
        ? { id: model.id, provider: model.provider, dimensions: model.dimensions, builtIn: model.builtIn }
        : null,
      pendingEmbeddingJobs: pendingJobs,
      memoriesWithoutVector: withoutVector,
      notes,
    };
  }
}

function timeAnchor(gathered: Gathered, timezone: string): TimeAnchor {
  const local = localTime(gathered.now, timezone);
  const last = gathered.lastSeen;
  const gapMs = last ? Math.max(0, gathered.now.getTime() - last.at.getTime()) : null;
  return {
    now: gathered.now.toISOString(),
    timezone,
    local: local.iso,
    localText: local.text,
    utcOffset: local.utcOffset,
    lastSeenAt: last?.at.toISOString() ?? null,
    lastSeenSource: last?.source ?? null,
    gap: gapMs === null ? null : humanDuration(gapMs),
    gapSeconds: gapMs === null ? null : Math.floor(gapMs / 1000),
    since: last ? { memories: gathered.memoriesSince, events: gathered.eventsSince } : null,
  };
}

/** The agent's `last_session_summary` entry, shown as its own section rather than among the entries. */
function lastSummary(entries: readonly WorkingMemoryEntry[]): BriefingMaterial['lastSummary'] {
  const entry = entries.find((candidate) => candidate.key === LAST_SESSION_SUMMARY_KEY);
  return entry ? { text: entry.value, updatedAt: entry.updatedAt.toISOString(), clipped: false } : null;
}

function channelItem(message: Broadcast): ChannelItem {
  const { author } = message;
  return {
    seq: message.seq,
    type: message.type,
    summary: clip(message.summary, MEMORY_CONTENT_CHARS),
    author: author.agentId ?? (author.userId ? `user:${author.userId}` : `token:${author.tokenId}`),
    assignee: message.assignee,
    at: message.at.toISOString(),
  };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
