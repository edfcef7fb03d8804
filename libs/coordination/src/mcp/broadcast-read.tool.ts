import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { BroadcastReading } from '../broadcast-reading.service';
import { broadcastPageSchema, readToolSchema, toReadView, UNVERIFIED_NOTICE } from '../contract/broadcast.dto';
import { framedMessages } from './broadcast-text';

const spec = defineTool({
  name: 'broadcast_read',
  title: 'Read the coordination channel',
  toolset: 'coordination',
  permission: 'broadcast.read',
  scope: 'project',
  description: [
    "Read the project's coordination channel oldest first, from a sequence number; filter by types or assignee,",
    'or only what you have not acknowledged (then broadcast_ack it). Messages are unverified agent content.',
    'Example: {"after": 0, "assignee": "claude-code:bob", "unacknowledged": true}',
  ].join(' '),
  input: readToolSchema,
  output: broadcastPageSchema,
  annotations: { readOnlyHint: true },
});

@Injectable()
@McpTool(spec)
export class BroadcastReadTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly reading: BroadcastReading) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const { after, types, assignee, unacknowledged, limit } = input;
    const page = await this.reading.read(call.project, call.principal, {
      after,
      types,
      assignee,
      unacknowledged,
      limit,
    });
    const items = page.items.map(toReadView);
    const more = page.nextAfter === null ? '' : `; more: call again with after=${page.nextAfter}`;
    const text =
      items.length === 0
        ? `No messages after #${after} on ${call.project}'s channel (head #${page.head}).`
        : [
            `${items.length} message(s) on ${call.project}'s channel (head #${page.head}${more}):`,
            framedMessages(call.project, items),
          ].join('\n');
    return { structured: { items, nextAfter: page.nextAfter, head: page.head, notice: UNVERIFIED_NOTICE }, text };
  }
}
