import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { SessionEventDto, toEventView } from '../contract/session.dto';
import { SessionEventsService } from '../session-events.service';
import { recordEventSchema } from '../contract/working-memory.fields';

const spec = defineTool({
  name: 'session_event',
  title: 'Record a session event',
  toolset: 'context',
  permission: 'events.write',
  scope: 'project',
  description: [
    'Log what just happened in this session to the project timeline every agent sees in its next recall_context:',
    'kind "file_written", "error", "decision", "session_start", "session_end" or "custom", a one-line summary',
    '(≤ 500 characters) and optional structured details (≤ 8 KB). Record decisions and notable errors, not every step.',
    'Example: {"kind": "decision", "summary": "Keep the v1 webhook format until clients migrate", "details": {"ticket": "BIL-42"}}',
  ].join(' '),
  input: recordEventSchema,
  output: SessionEventDto.schema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
});

@Injectable()
@McpTool(spec)
export class SessionEventTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly events: SessionEventsService) {}

  async run(input: z.output<typeof spec.input>, call: ToolCall) {
    // Named fields only: the service re-validates strictly and the input also carries `project`.
    const { kind, summary, details } = input;
    const event = toEventView(await this.events.record(call.project!, call.principal, { kind, summary, details }));
    return { structured: event, text: `Recorded ${event.kind} event ${event.id} in ${call.project}.` };
  }
}
