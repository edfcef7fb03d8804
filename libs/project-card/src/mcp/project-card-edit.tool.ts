import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { ProjectCards } from '../project-cards.service';
import { projectCardEditSchema, projectCardViewSchema } from '../contract/project-card.dto';

// The caller knows what it wrote: the answer says which version that made, not the card again
// (project_card lists the whole card's schema already; the harness toolset pays for both).
const view = projectCardViewSchema.shape;
const editResultSchema = z.object({
  project: view.project,
  version: view.version,
  edited: view.edited,
  updatedAt: view.updatedAt,
});

const spec = defineTool({
  name: 'project_card_edit',
  title: 'Edit the project card',
  toolset: 'harness',
  permission: 'kb.write',
  scope: 'project',
  description:
    'Correct or extend the project card: each section in "changes" replaces the current one whole, and the code ' +
    'index stops refreshing it. Pass the version you read as expectedVersion to fail on a concurrent change. ' +
    'Example: {"changes": {"notes": "Deploys need VPN access"}, "expectedVersion": 3}',
  input: projectCardEditSchema,
  output: editResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
});

@Injectable()
@McpTool(spec)
export class ProjectCardEditTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly cards: ProjectCards) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    // Named fields only: the input also carries the gateway's `project` argument.
    const { changes, expectedVersion, note } = input;
    const card = await this.cards.edit(call.project, call.principal, { changes, expectedVersion, note });
    const changed = Object.keys(changes).join(', ');
    return {
      structured: { project: card.project, version: card.version, edited: card.edited, updatedAt: card.updatedAt },
      text:
        `Project card of ${card.project} is now version ${card.version} ` +
        `(changed: ${changed}; edited: ${card.edited.join(', ')}).`,
    };
  }
}
