import { channelLines, reviewOutcomeText } from './briefing-text';
import { type Briefing, type WorkingMemoryItem } from './contract/briefing.types';

/** Longest value or content one line shows; the structured copy carries the rest. */
const ITEM_CHARS = 240;
const SUMMARY_CHARS = 1_200;

const oneLine = (text: string, max = ITEM_CHARS) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** "3h ago" style ages: an agent needs the order of magnitude, not the timestamp. */
export function ago(now: string, then: string): string {
  const seconds = Math.max(0, (Date.parse(now) - Date.parse(then)) / 1000);
  if (seconds < 90) return 'just now';
  if (seconds < 5_400) return `${Math.round(seconds / 60)}m ago`;
  if (seconds < 129_600) return `${Math.round(seconds / 3_600)}h ago`;
  return `${Math.round(seconds / 86_400)}d ago`;
}

const entry = (item: WorkingMemoryItem) => `- ${item.key} (${item.importance}): ${oneLine(item.value)}`;

/**
 * The briefing as an agent reads it on its first turn: the REST rendering's content with the
 * bookkeeping removed (ISO timestamps become ages, status becomes one line, no repeated
 * notes), so the session starts with as little context spent as possible. Full ids stay:
 * they are what memory_get and friends take.
 */
export function compactBriefing(briefing: Omit<Briefing, 'text'>): string {
  const { timeAnchor: anchor, workingMemory: wm } = briefing;
  // The caller knows who it is: its agent key is in the structured copy, not in the text.
  const lines = [`Briefing ${briefing.project}, ${anchor.localText} ${anchor.timezone}`];
  if (anchor.lastSeenAt === null) lines.push('First visit: nothing to compare with yet.');
  else {
    const who = anchor.lastSeenSource === 'agent' ? 'You were' : 'Someone was';
    const since = anchor.since ? `; since: ${anchor.since.memories} memories, ${anchor.since.events} events` : '';
    lines.push(`${who} last here ${anchor.gap} ago${since}.`);
  }
  const shown = [...wm.critical, ...wm.normal, ...wm.ephemeral];
  if (shown.length > 0) {
    lines.push(`Working memory (${wm.total}/${wm.cap}):`, ...shown.map(entry));
  }
  if (briefing.reviewOutcomes) {
    lines.push('Reviews of your memories:', ...briefing.reviewOutcomes.map((o) => `- ${reviewOutcomeText(o)}`));
  }
  const { channel } = briefing;
  lines.push(
    ...channelLines(
      briefing.project,
      'For you on the channel (broadcast_ack when done):',
      channel.addressedToYou,
      channel.moreAddressedToYou,
    ),
  );
  if (briefing.projectCard) {
    lines.push(briefing.projectCard.text);
    if (briefing.projectCard.clipped) lines.push('(Card shortened: project_card has all of it.)');
  }
  if (briefing.lastSummary) {
    const updated = ago(anchor.now, briefing.lastSummary.updatedAt);
    lines.push(`Last session summary (${updated}): ${oneLine(briefing.lastSummary.text, SUMMARY_CHARS)}`);
  }
  if (briefing.newMemories.length > 0) {
    lines.push('New memories:');
    for (const memory of briefing.newMemories) {
      lines.push(`- [${memory.category} i${memory.importance}] ${oneLine(memory.content)} (id ${memory.id})`);
    }
  }
  if (briefing.recentEvents.length > 0) {
    lines.push('Recent events (* new since your last visit):');
    for (const event of briefing.recentEvents) {
      const age = ago(anchor.now, event.createdAt);
      const by = event.agent === briefing.agent ? '' : ` by ${event.agent}`;
      lines.push(`- ${age} ${event.kind}${by}: ${oneLine(event.summary)}${event.new ? ' *' : ''}`);
    }
  }
  lines.push(...channelLines(briefing.project, 'Latest STATUS per agent:', channel.latestStatus));
  if (briefing.status) lines.push(statusLine(briefing.status));
  const left = Object.entries(briefing.truncated).map(([section, count]) => `${section} ${count}`);
  if (left.length > 0) lines.push(`(Budget ${briefing.budget.limit} tokens; left out: ${left.join(', ')}.)`);
  return lines.join('\n');
}

function statusLine(status: NonNullable<Briefing['status']>): string {
  const model = status.embeddingModel;
  const how = !model
    ? 'keyword only'
    : model.builtIn
      ? `hybrid, ${model.id} (built-in, lexical)`
      : `hybrid, ${model.id}`;
  const waiting = status.memoriesWithoutVector > 0 ? `; ${status.memoriesWithoutVector} memories await vectors` : '';
  const redis = status.pendingEmbeddingJobs === null ? '; queue unreachable' : '';
  return `Search: ${how}${waiting}${redis}.`;
}
