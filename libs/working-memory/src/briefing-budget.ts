import { type ProjectCardView, renderCard } from '@cairn/project-card';
import {
  type Briefing,
  type BriefingSection,
  type ChannelItem,
  type EventItem,
  type LastSummary,
  type NewMemoryItem,
  type ProjectCardItem,
  type ReviewOutcomeItem,
  type SystemStatus,
  type TimeAnchor,
  type WorkingMemoryItem,
} from './contract/briefing.types';

/** Everything the briefing could say, before the budget. */
export interface BriefingMaterial {
  readonly project: string;
  readonly agent: string;
  readonly timeAnchor: TimeAnchor;
  readonly workingMemory: { readonly entries: readonly WorkingMemoryItem[]; readonly cap: number };
  readonly lastSummary: LastSummary | null;
  readonly newMemories: readonly NewMemoryItem[];
  readonly recentEvents: readonly EventItem[];
  readonly channel: {
    readonly addressedToYou: readonly ChannelItem[];
    readonly moreAddressedToYou: number;
    readonly latestStatus: readonly ChannelItem[];
  };
  readonly status: SystemStatus;
  /** Decided reviews of the caller's memories, not told before. */
  readonly reviewOutcomes?: readonly ReviewOutcomeItem[];
  /** The project's card; absent or version 0 when it has none. */
  readonly projectCard?: ProjectCardView | null;
}

/** The smallest piece of a summary worth showing when the whole does not fit. */
const MIN_SUMMARY_CHARS = 200;
/** The card takes at most this share of the budget: it is the same every session, the rest is news. */
const CARD_BUDGET_SHARE = 0.25;
/** A card cut shorter than this tells too little to be worth its tokens. */
const MIN_CARD_CHARS = 200;

/** The estimate the budget uses: a token per four characters of the serialised JSON. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

class Budget {
  used = 0;
  readonly truncated: Partial<Record<BriefingSection, number>> = {};

  constructor(readonly limit: number) {}

  fits(tokens: number): boolean {
    return this.used + tokens <= this.limit;
  }

  omit(section: BriefingSection, count: number): void {
    if (count > 0) this.truncated[section] = (this.truncated[section] ?? 0) + count;
  }

  /**
   * Keeps the items that fit, in order. An item too large is skipped but later (smaller) ones
   * may still get in, so one huge entry cannot hide everything after it.
   */
  list<T>(section: BriefingSection, items: readonly T[]): T[] {
    const kept: T[] = [];
    let chars = 2; // the brackets of the JSON array
    let charged = 0;
    for (const item of items) {
      const next = chars + JSON.stringify(item).length + (kept.length > 0 ? 1 : 0);
      const tokens = Math.ceil(next / 4);
      if (!this.fits(tokens - charged)) continue;
      this.used += tokens - charged;
      charged = tokens;
      chars = next;
      kept.push(item);
    }
    this.omit(section, items.length - kept.length);
    return kept;
  }

  whole<T>(section: BriefingSection, value: T | null): T | null {
    if (value === null) return null;
    const tokens = estimateTokens(value);
    if (this.fits(tokens)) {
      this.used += tokens;
      return value;
    }
    this.omit(section, 1);
    return null;
  }

  /** The summary, or as much of its beginning as fits (clipped), or nothing. */
  summary(value: LastSummary | null): LastSummary | null {
    if (value === null) return null;
    const full = estimateTokens(value);
    if (this.fits(full)) {
      this.used += full;
      return value;
    }
    this.omit('lastSummary', 1);
    let keep = Math.floor(((this.limit - this.used) * 4 - estimateTokens({ ...value, text: '' }) * 4) * 0.9);
    while (keep >= MIN_SUMMARY_CHARS) {
      const clipped = { ...value, text: `${value.text.slice(0, keep).trimEnd()}…`, clipped: true };
      const tokens = estimateTokens(clipped);
      if (this.fits(tokens)) {
        this.used += tokens;
        return clipped;
      }
      // Escaped characters (quotes, newlines) serialise longer than they count: shrink and retry.
      keep = Math.floor(keep * 0.8);
    }
    return null;
  }
}

/**
 * The card rendered into what is left of its share of the budget: whole when it fits, else cut
 * by renderCard (lists first, "… n more"), shrinking until its JSON fits (escaped newlines
 * serialise longer than they count), or nothing when too little room is left.
 */
function fitCard(budget: Budget, card: ProjectCardView | null | undefined): ProjectCardItem | null {
  if (!card || card.version === 0) return null;
  const room = Math.min(Math.floor(budget.limit * CARD_BUDGET_SHARE), budget.limit - budget.used);
  const full = renderCard(card, Number.MAX_SAFE_INTEGER);
  let chars = Math.min(full.length, room * 4 - estimateTokens({ version: card.version, text: '', clipped: true }) * 4);
  while (chars >= MIN_CARD_CHARS) {
    const text = renderCard(card, chars);
    const item = { version: card.version, text, clipped: text !== full };
    const tokens = estimateTokens(item);
    if (tokens <= room) {
      budget.used += tokens;
      if (item.clipped) budget.omit('projectCard', 1);
      return item;
    }
    chars = Math.floor(chars * 0.8);
  }
  budget.omit('projectCard', 1);
  return null;
}

/**
 * Fits the material into `limitTokens`, most important first: the time anchor always (an agent
 * must know when it is even in the tightest budget), then critical working memory, status, review
 * outcomes (told once: what is left out waits for the next briefing), the channel messages
 * addressed to the agent, the project card (at most a quarter of the budget), the last summary, normal working memory, new memories, recent events,
 * the other agents' latest STATUS, ephemeral working memory.
 * Returns everything but the text rendering.
 */
export function fitBriefing(material: BriefingMaterial, limitTokens: number): Omit<Briefing, 'text'> {
  const budget = new Budget(limitTokens);
  const entries = material.workingMemory.entries;
  budget.used += estimateTokens({
    project: material.project,
    agent: material.agent,
    timeAnchor: material.timeAnchor,
    workingMemory: { total: entries.length, cap: material.workingMemory.cap },
    channel: { addressedToYou: [], moreAddressedToYou: material.channel.moreAddressedToYou, latestStatus: [] },
  });
  const critical = budget.list(
    'workingMemory.critical',
    entries.filter((entry) => entry.importance >= 4),
  );
  const status = budget.whole('status', material.status);
  const reviewOutcomes = budget.list('reviewOutcomes', material.reviewOutcomes ?? []);
  const addressedToYou = budget.list('channel', material.channel.addressedToYou);
  const projectCard = fitCard(budget, material.projectCard);
  const lastSummary = budget.summary(material.lastSummary);
  const normal = budget.list(
    'workingMemory.normal',
    entries.filter((entry) => entry.importance === 3),
  );
  const newMemories = budget.list('newMemories', material.newMemories);
  const recentEvents = budget.list('recentEvents', material.recentEvents);
  const latestStatus = budget.list('channel', material.channel.latestStatus);
  const ephemeral = budget.list(
    'workingMemory.ephemeral',
    entries.filter((entry) => entry.importance <= 2),
  );
  return {
    project: material.project,
    agent: material.agent,
    timeAnchor: material.timeAnchor,
    workingMemory: { critical, normal, ephemeral, total: entries.length, cap: material.workingMemory.cap },
    lastSummary,
    projectCard,
    newMemories,
    recentEvents,
    channel: { addressedToYou, moreAddressedToYou: material.channel.moreAddressedToYou, latestStatus },
    status,
    // Only when there is something to tell: most briefings have none.
    ...(reviewOutcomes.length > 0 && { reviewOutcomes }),
    budget: { limit: limitTokens, used: budget.used },
    truncated: budget.truncated,
  };
}
