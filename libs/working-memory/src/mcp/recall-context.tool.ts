import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall, toolListing } from '@cairn/mcp';
import { type z } from 'zod';
import { BriefingService } from '../briefing.service';
import { BriefingDto } from '../contract/briefing.dto';
import { contextOptionsSchema } from '../contract/working-memory.fields';
import { compactBriefing } from '../briefing-compact';

// What the tool list says of the REST schema's arguments (listing only: the REST API keeps its own).
toolListing.add(contextOptionsSchema.shape.timezone, { description: 'IANA time zone (default UTC)' });
toolListing.add(contextOptionsSchema.shape.budgetTokens, { description: 'Briefing size limit, in estimated tokens' });
// The briefing's text is what an agent reads; the list sketches its structured copy's larger sections.
const briefing = BriefingDto.schema.shape;
toolListing.add(briefing.timeAnchor, {
  summary: 'now, timezone, local time, lastSeenAt (your previous briefing here) and the gap since',
});
toolListing.add(briefing.workingMemory, {
  summary: 'Your notes: critical, normal and ephemeral entries (key, value, importance, updatedAt), total, cap',
});
// Listed as short lines: the default tool list is at its size budget.
toolListing.add(briefing.channel, {
  summary: 'Channel messages addressed to you, not acknowledged; latest STATUS per agent',
  description: '',
});
toolListing.add(briefing.newMemories, {
  summary: 'The most important memories added since lastSeenAt (id, content, category, importance, agentId, createdAt)',
});
toolListing.add(briefing.recentEvents, { summary: 'Session events (id, kind, summary, agent, createdAt, new)' });
toolListing.add(briefing.truncated, { summary: 'Per section, how many items the budget left out' });
toolListing.add(briefing.status, { summary: 'Search mode, embedding model, pending embedding jobs, notes' });

const spec = defineTool({
  name: 'recall_context',
  title: 'Session briefing',
  toolset: 'context',
  permission: 'context.read',
  scope: 'project',
  description: [
    "Call this FIRST in every session: what changed since you were last here (new memories, other agents' events),",
    'your working memory, the last session summary and the search mode, in one briefing.',
    'Example: {} or {"timezone": "Europe/Berlin"}',
  ].join(' '),
  input: contextOptionsSchema,
  // The text rendering goes to the content block; the structured copy need not repeat it. Review
  // outcomes and the project card are told in the text only: their schemas would push the default
  // tool list over its size goal (tool-list-size.e2e-spec), and an agent reads the text.
  output: BriefingDto.schema.omit({ text: true, reviewOutcomes: true, projectCard: true }),
  // Reading records the caller's own visit time (so the next briefing knows what is new);
  // no project content changes, which is what readOnlyHint is about.
  annotations: { readOnlyHint: true, idempotentHint: false },
});

@Injectable()
@McpTool(spec)
export class RecallContextTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly briefings: BriefingService) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    // Named fields only: the input also carries the gateway's `project` argument.
    const options = { timezone: input.timezone, budgetTokens: input.budgetTokens };
    const { text: _markdown, ...briefing } = await this.briefings.context(call.project, call.principal, options);
    const { reviewOutcomes: _toldInText, projectCard: _cardInText, ...structured } = briefing;
    return { structured, text: compactBriefing(briefing) };
  }
}
