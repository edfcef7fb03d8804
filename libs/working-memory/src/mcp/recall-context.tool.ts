import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { BriefingService } from '../briefing.service';
import { BriefingDto } from '../contract/briefing.dto';
import { contextOptionsSchema } from '../contract/working-memory.fields';
import { compactBriefing } from './briefing-compact';

const spec = defineTool({
  name: 'recall_context',
  title: 'Session briefing',
  toolset: 'context',
  permission: 'context.read',
  scope: 'project',
  description: [
    'Call this FIRST in every session, before starting work: briefs you on the project in one call — what changed',
    'since you were last here (new memories, events by other agents), your working memory, the last session summary',
    'and whether search is semantic — within a token budget, most important first.',
    'Example: {"timezone": "Europe/Berlin"} or {} (add "project" when the token has no default project).',
  ].join(' '),
  input: contextOptionsSchema,
  // The text rendering goes to the content block; the structured copy need not repeat it.
  output: BriefingDto.schema.omit({ text: true }),
  // Reading records the caller's own visit time (so the next briefing knows what is new);
  // no project content changes, which is what readOnlyHint is about.
  annotations: { readOnlyHint: true, idempotentHint: false },
});

@Injectable()
@McpTool(spec)
export class RecallContextTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly briefings: BriefingService) {}

  async run(input: z.output<typeof spec.input>, call: ToolCall) {
    // Named fields only: the input also carries the gateway's `project` argument.
    const options = { timezone: input.timezone, budgetTokens: input.budgetTokens };
    const { text: _markdown, ...briefing } = await this.briefings.context(call.project!, call.principal, options);
    return { structured: briefing, text: compactBriefing(briefing) };
  }
}
