import { Injectable } from '@nestjs/common';
import { BadRequestError, NotFoundError } from '@cairn/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import {
  acceptedText,
  GenerationRequests,
  generationRequestSchema,
  requestAcceptedSchema,
  requestText,
  toRequestView,
  extractionInputSchema,
} from '@cairn/generation';
import { z } from 'zod';

const spec = defineTool({
  name: 'extract_facts',
  title: 'Extract facts from a transcript',
  toolset: 'harness',
  permission: 'memory.extract',
  scope: 'project',
  description: [
    'Extract durable facts from a transcript in the background: up to 20 memories, or proposals for review per',
    'the tenant\'s extraction mode. Pass "transcript", then the returned "requestId" to read the outcome.',
    'Example: {"transcript": "User: we deploy with Helm now, not kubectl apply. Assistant: noted..."}',
  ].join(' '),
  input: z.strictObject({
    transcript: extractionInputSchema.shape.transcript.optional(),
    occurredAt: extractionInputSchema.shape.occurredAt,
    requestId: z.uuid('must be a request id').optional().describe('A requestId returned by an earlier call'),
  }),
  output: z.object({
    outcome: z.enum(['queued', 'status']),
    accepted: requestAcceptedSchema.optional(),
    request: generationRequestSchema.optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

/** extract_facts: the REST `extract` (queue) and `requests/{id}` (poll) as one tool. */
@Injectable()
@McpTool(spec)
export class ExtractFactsTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly requests: GenerationRequests) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    if ((input.transcript === undefined) === (input.requestId === undefined)) {
      throw new BadRequestError('Pass exactly one of transcript or requestId', undefined, 'invalid_arguments');
    }
    const project = call.project;
    if (input.transcript !== undefined) {
      // The same transcript from the same caller within a day returns that request (reused).
      const occurredAt = input.occurredAt === undefined ? undefined : new Date(input.occurredAt);
      const accepted = await this.requests.submit(
        project,
        call.principal,
        'fact_extraction',
        input.transcript,
        occurredAt,
      );
      return {
        structured: { outcome: 'queued' as const, accepted },
        text: acceptedText(accepted, 'fact extraction', spec.name),
      };
    }
    const row = await this.requests.get(project, input.requestId!);
    if (row.kind !== 'fact_extraction') throw new NotFoundError('Fact-extraction request');
    const request = toRequestView(row);
    return { structured: { outcome: 'status' as const, request }, text: requestText(request, spec.name) };
  }
}
