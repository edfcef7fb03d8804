import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall, toolListing } from '@cairn/mcp';
import { redactedLine } from '@cairn/secrets';
import { type z } from 'zod';
import { RecordedSessionEventDto, toRecordedEventView } from '../contract/session.dto';
import { SessionEventsService } from '../session-events.service';
import { recordEventSchema } from '../contract/working-memory.fields';

const spec = defineTool({
  name: 'session_event',
  title: 'Record a session event',
  toolset: 'context',
  permission: 'events.write',
  scope: 'project',
  description: [
    'Log a decision, a notable error or another event to the project timeline other agents see in recall_context;',
    'not every step. Example: {"kind": "decision", "summary": "Keep v1 webhooks until clients migrate"}',
  ].join(' '),
  // idempotencyKey (REST only) is for clients that replay queued events; the tool list leaves it out.
  input: recordEventSchema.omit({ idempotencyKey: true }),
  output: RecordedSessionEventDto.schema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
});

// Listing only (the REST documentation keeps the long form).
toolListing.add(RecordedSessionEventDto.schema.shape.agent, {
  description: 'Who recorded it: agent:<id>, user:<id> or token:<id>',
});

@Injectable()
@McpTool(spec)
export class SessionEventTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly events: SessionEventsService) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    // Named fields only: the service re-validates strictly and the input also carries `project`.
    const { kind, summary, details } = input;
    const event = toRecordedEventView(
      await this.events.record(call.project, call.principal, { kind, summary, details }),
    );
    const lines = [`Recorded ${event.kind} event ${event.id} in ${call.project}.`, ...redactedLine(event.redacted)];
    return { structured: event, text: lines.join('\n') };
  }
}
