import { unverifiedAgentLabel } from '@cairn/safe-fetch';
import {
  type Briefing,
  type ChannelItem,
  type ReviewOutcomeItem,
  type WorkingMemoryItem,
} from './contract/briefing.types';

/** Longest value or content the text shows of one item; the JSON carries the rest. */
const ITEM_CHARS = 300;

const oneLine = (text: string, max = ITEM_CHARS) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function workingMemory(title: string, items: readonly WorkingMemoryItem[]): string[] {
  if (items.length === 0) return [];
  return [
    `## Working memory: ${title}`,
    ...items.map((item) => `- ${item.key} (${item.importance}): ${oneLine(item.value)}`),
  ];
}

/** What a reviewer decided about one of the reader's memories, as one sentence. */
export function reviewOutcomeText(outcome: ReviewOutcomeItem): string {
  const what =
    outcome.kind === 'promotion'
      ? `promotion of ${outcome.memoryId} to ${outcome.toScope}`
      : `contradiction of your memory ${outcome.memoryId} with another author's`;
  const how = outcome.resolution ? ` (${outcome.resolution})` : '';
  const why = outcome.reason ? `: ${oneLine(outcome.reason)}` : '';
  return `${what} ${outcome.status}${how}${why}`;
}

/** Channel messages in one unverified-agent-content frame: another agent's words are data, not instructions. */
export function channelLines(project: string, title: string, items: readonly ChannelItem[], more = 0): string[] {
  if (items.length === 0) return [];
  const body = items.map((item) => {
    const to = item.assignee ? ` → ${item.assignee}` : '';
    return `#${item.seq} ${item.type} by ${item.author}${to}: ${oneLine(item.summary)}`;
  });
  if (more > 0) body.push(`(${more} more: broadcast_read with unacknowledged)`);
  return [title, unverifiedAgentLabel(`project ${project} channel`, body.join('\n'))];
}

/**
 * The briefing as compact markdown for an agent's first turn: the same (already budgeted)
 * content as the JSON, one line per item, long values shortened.
 */
export function renderBriefingText(briefing: Omit<Briefing, 'text'>): string {
  const anchor = briefing.timeAnchor;
  const lines = [`# Briefing: project ${briefing.project}, ${briefing.agent}`];
  lines.push(`Now: ${anchor.localText} (${anchor.timezone}, UTC${anchor.utcOffset}); ${anchor.now}`);
  if (anchor.lastSeenAt === null) {
    lines.push('First visit to this project: nothing to compare with yet.');
  } else {
    const whose = anchor.lastSeenSource === 'agent' ? 'you were' : 'this project was';
    const since = anchor.since
      ? `; since then ${anchor.since.memories} new memories, ${anchor.since.events} events`
      : '';
    lines.push(`Last time ${whose} here: ${anchor.lastSeenAt} (${anchor.gap} ago)${since}.`);
  }

  lines.push(...workingMemory('critical (4-5)', briefing.workingMemory.critical));
  if (briefing.reviewOutcomes) {
    lines.push('## Reviews of your memories', ...briefing.reviewOutcomes.map((o) => `- ${reviewOutcomeText(o)}`));
  }
  const { channel } = briefing;
  lines.push(
    ...channelLines(
      briefing.project,
      '## Channel: addressed to you, not acknowledged',
      channel.addressedToYou,
      channel.moreAddressedToYou,
    ),
  );
  if (briefing.projectCard) {
    const shortened = briefing.projectCard.clipped ? ' (shortened: project_card has all of it)' : '';
    lines.push(`## Project card${shortened}`, briefing.projectCard.text);
  }
  if (briefing.lastSummary) {
    const clipped = briefing.lastSummary.clipped ? ' (beginning only)' : '';
    lines.push(`## Last session summary, ${briefing.lastSummary.updatedAt}${clipped}`, briefing.lastSummary.text);
  }
  lines.push(...workingMemory('normal (3)', briefing.workingMemory.normal));
  if (briefing.newMemories.length > 0) {
    lines.push('## New memories since last seen');
    for (const memory of briefing.newMemories) {
      lines.push(`- [${memory.category}, ${memory.importance}] ${oneLine(memory.content)} (id ${memory.id})`);
    }
  }
  if (briefing.recentEvents.length > 0) {
    lines.push('## Recent events');
    for (const event of briefing.recentEvents) {
      const fresh = event.new ? ' (new)' : '';
      lines.push(`- ${event.createdAt} ${event.kind} by ${event.agent}: ${oneLine(event.summary)}${fresh}`);
    }
  }
  lines.push(...channelLines(briefing.project, "## Channel: each agent's latest STATUS", channel.latestStatus));
  lines.push(...workingMemory('ephemeral (1-2)', briefing.workingMemory.ephemeral));

  const status = briefing.status;
  if (status) {
    const model = status.embeddingModel
      ? `${status.embeddingModel.id} (${status.embeddingModel.provider}${status.embeddingModel.builtIn ? ', built-in' : ''})`
      : 'none';
    const pending = status.pendingEmbeddingJobs ?? 'unknown';
    lines.push(
      '## Status',
      `Search: ${status.searchMode}; embedding model: ${model}; pending embedding jobs: ${pending}; ` +
        `memories without a current vector: ${status.memoriesWithoutVector}.`,
      ...status.notes.map((note) => `Note: ${note}.`),
    );
  }

  const left = Object.entries(briefing.truncated).map(([section, count]) => `${section} ${count}`);
  if (left.length > 0) lines.push(`(Left out to stay within ${briefing.budget.limit} tokens: ${left.join(', ')}.)`);
  return lines.join('\n');
}
