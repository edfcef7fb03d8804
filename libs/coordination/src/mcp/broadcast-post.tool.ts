import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { redactedLine } from '@cairn/secrets';
import { type z } from 'zod';
import { BroadcastPosting } from '../broadcast-posting.service';
import {
  channelKeyArgument,
  postBroadcastSchema,
  postedSchema,
  toBroadcastView,
  UNVERIFIED_NOTICE,
} from '../contract/broadcast.dto';
import { framedMessages } from './broadcast-text';

const spec = defineTool({
  name: 'broadcast_post',
  title: 'Post to the coordination channel',
  toolset: 'coordination',
  permission: 'broadcast.post',
  scope: 'project',
  description: [
    "Post a message on the project's append-only coordination channel. STATUS (what you are doing), PROPOSED",
    '(a change you suggest), DEPENDENCY (what you wait for): any agent. ASSIGN, MERGE, REJECT, REVISE: orchestrators.',
    'Pass channelKey if the project set one. Example: {"type": "STATUS", "summary": "Fixing the retry test",',
    '"files": ["src/billing/retry.ts"]}',
  ].join(' '),
  input: postBroadcastSchema.extend({
    channelKey: channelKeyArgument.optional().describe("The channel's posting key, when the project set one"),
  }),
  output: postedSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  secretArguments: ['channelKey'],
});

@Injectable()
@McpTool(spec)
export class BroadcastPostTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly posting: BroadcastPosting) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const { channelKey, type, summary, files, replyTo, assignee } = input;
    const posted = await this.posting.post(
      call.project,
      call.principal,
      { type, summary, files, replyTo, assignee },
      channelKey,
    );
    const message = toBroadcastView(posted.message);
    const text = [
      `Posted #${message.seq} on ${call.project}'s channel.`,
      framedMessages(call.project, [message]),
      ...redactedLine([...posted.redacted]),
    ].join('\n');
    return { structured: { message, redacted: [...posted.redacted], notice: UNVERIFIED_NOTICE }, text };
  }
}
