import { Injectable } from '@nestjs/common';
import { nextPageLine, pageLimitSchema } from '@cairn/memory';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { mySharesPageSchema, toGrantView } from '../contract/sharing.dto';
import { SharingListings } from '../sharing-listings.service';
import { grantLine } from './sharing-text';

const spec = defineTool({
  name: 'my_shares',
  title: 'My shares',
  toolset: 'sharing',
  permission: 'memory.read',
  scope: 'project',
  description: [
    "List the shares and tag rules you made in the project (and your memories' shares), newest first; an admin",
    'with all: true sees everyone\'s. Example: {"memoryId": "<memory id>"}',
  ].join(' '),
  input: z.strictObject({
    limit: pageLimitSchema,
    cursor: z.string().min(1).max(200).optional().describe("The previous page's nextCursor"),
    all: z.boolean().optional(),
    memoryId: z.uuid().optional().describe("Only this memory's shares"),
  }),
  output: mySharesPageSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MySharesTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly listings: SharingListings) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const page = await this.listings.myShares(call.project, call.principal, input);
    const items = page.items.map(toGrantView);
    const lines = items.length === 0 ? ['No shares.'] : items.map(grantLine);
    return {
      structured: { items, nextCursor: page.nextCursor },
      text: [...lines, nextPageLine(page.nextCursor)].filter(Boolean).join('\n'),
    };
  }
}
