import { Injectable } from '@nestjs/common';
import { BadRequestError, NotFoundError } from '@cairn/common';
import {
  acceptedText,
  GenerationRequests,
  generationRequestSchema,
  requestAcceptedSchema,
  requestText,
  toRequestView,
  transcriptSchema,
} from '@cairn/generation';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall, toolListing } from '@cairn/mcp';
import { redactedLine, redactedSchema } from '@cairn/secrets';
import { SessionSummaryService, summarizeSchema } from '@cairn/working-memory';
import { z } from 'zod';

/** A summary filed now: the archived document, the working-memory entries it evicted, what was redacted. */
const filedSchema = z.object({
  documentId: z.uuid().describe('Knowledge-base document archiving the summary'),
  expiresAt: z.iso.datetime(),
  evicted: z.array(z.object({ key: z.string(), memoryId: z.uuid() })),
  redacted: redactedSchema,
});

// Listed as one line: the fields are plain, and the default tool list is at its size budget.
toolListing.add(filedSchema, {
  summary: '{documentId (archived copy), expiresAt, evicted: [{key, memoryId}], redacted: [{type, count}]}',
});

const spec = defineTool({
  name: 'session_summarize',
  title: 'Summarize the session',
  toolset: 'context',
  permission: 'events.write',
  scope: 'project',
  description: [
    'Leave a summary for the next session (shown by recall_context): "summary" (what',
    'you did, decided, left open), or "transcript" (summarized in the background: pass the returned requestId back',
    'as "requestId" for the result). Example: {"summary": "Moved billing to Fastify; next: fix the flaky retry test"}',
  ].join(' '),
  input: z.strictObject({
    summary: summarizeSchema.shape.text.optional(),
    transcript: transcriptSchema.shape.transcript.optional(),
    requestId: z.uuid('must be a request id').optional().describe('A requestId returned by an earlier call'),
  }),
  output: z.object({
    outcome: z.enum(['filed', 'queued', 'status']),
    filed: filedSchema.optional(),
    accepted: requestAcceptedSchema.optional(),
    request: generationRequestSchema.optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
});

// The description explains the three arguments: the list does not repeat it for each.
for (const argument of Object.values(spec.input.shape)) toolListing.add(argument, { description: '' });

type Input = z.output<typeof spec.input>;

/** session_summarize: the REST `session/summary` (file now) and `session/summarize` (queue) in one tool. */
@Injectable()
@McpTool(spec)
export class SessionSummarizeTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(
    private readonly summaries: SessionSummaryService,
    private readonly requests: GenerationRequests,
  ) {}

  async run(input: Input, call: ProjectToolCall) {
    const given = (['summary', 'transcript', 'requestId'] as const).filter((key) => input[key] !== undefined);
    if (given.length !== 1) {
      throw new BadRequestError('Pass exactly one of summary, transcript or requestId', undefined, 'invalid_arguments');
    }
    const project = call.project;
    if (input.summary !== undefined) {
      const result = await this.summaries.summarize(project, call.principal, { text: input.summary });
      const filed = {
        documentId: result.document.id,
        expiresAt: result.document.expiresAt.toISOString(),
        evicted: result.evicted.map(({ key, memoryId }) => ({ key, memoryId })),
        redacted: [...result.redacted],
      };
      const text = [
        `Filed the session summary (document ${filed.documentId}); your next recall_context shows it.`,
        ...redactedLine(filed.redacted),
      ].join('\n');
      return { structured: { outcome: 'filed' as const, filed }, text };
    }
    if (input.transcript !== undefined) {
      const accepted = await this.requests.submit(project, call.principal, 'session_summary', input.transcript);
      const text = acceptedText(accepted, 'the session summary', spec.name);
      return { structured: { outcome: 'queued' as const, accepted }, text };
    }
    const row = await this.requests.get(project, input.requestId!);
    if (row.kind !== 'session_summary') throw new NotFoundError('Session-summary request');
    const request = toRequestView(row);
    return { structured: { outcome: 'status' as const, request }, text: requestText(request, spec.name) };
  }
}
