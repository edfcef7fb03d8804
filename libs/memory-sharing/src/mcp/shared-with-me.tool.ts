import { Injectable } from '@nestjs/common';
import { cursorSchema, nextPageLine, pageLimitSchema } from '@cairn/memory';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { SHARED_CONTENT_NOTE, sharedWithMePageSchema, toSharedMemoryView } from '../contract/sharing.dto';
import { SharingListings } from '../sharing-listings.service';
import { sharedLine } from './sharing-text';

const spec = defineTool({
  name: 'shared_with_me',
  title: 'Memories shared with me',
  toolset: 'sharing',
  permission: 'memory.read',
  scope: 'project',
  description: [
    'List memories others shared with you in the project (one by one or by a tag rule), newest first, with your',
    'permission (write: memory_update works on them) and who shared each. Example: {"limit": 20}',
  ].join(' '),
  input: z.strictObject({ limit: pageLimitSchema, cursor: cursorSchema }),
  output: sharedWithMePageSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class SharedWithMeTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly listings: SharingListings) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const page = await this.listings.sharedWithMe(call.project, call.principal, input.limit, input.cursor);
    const items = page.items.map(toSharedMemoryView);
    const lines =
      items.length === 0 ? ['Nothing is shared with you here.'] : [SHARED_CONTENT_NOTE, ...items.map(sharedLine)];
    return {
      structured: { items, nextCursor: page.nextCursor, note: SHARED_CONTENT_NOTE },
      text: [...lines, nextPageLine(page.nextCursor)].filter(Boolean).join('\n'),
    };
  }
}
