import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { ProjectCards } from '../project-cards.service';
import { renderCard } from '../render-card';
import { projectCardInputSchema, projectCardViewSchema } from '../contract/project-card.dto';

/** The text an agent reads; the structured copy carries the whole card whatever its size. */
const TEXT_MAX_CHARS = 16_000;

const spec = defineTool({
  name: 'project_card',
  title: 'Project card',
  toolset: 'harness',
  permission: 'kb.read',
  scope: 'project',
  description:
    'Read this instead of listing and reading files to learn a project: its stack, layout, entry points, build and ' +
    'test commands, conventions, hot files and notes, derived from the code index and edited by the team. ' +
    'Example: {} or {"version": 3} for a past version',
  input: projectCardInputSchema,
  output: projectCardViewSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class ProjectCardTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly cards: ProjectCards) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const view =
      input.version === undefined
        ? await this.cards.current(call.project, call.principal)
        : await this.cards.version(call.project, call.principal, input.version);
    const hint = view.version === 0 ? ' Write one with project_card_edit, or run `cairn index`.' : '';
    return { structured: view, text: `${renderCard(view, TEXT_MAX_CHARS)}${hint}` };
  }
}
