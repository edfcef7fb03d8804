import { Injectable } from '@nestjs/common';
import { BadRequestError } from '@cairn/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall, toolListing } from '@cairn/mcp';
import { z } from 'zod';
import { fetchResultSchema, fetchSchema, toFetchResultDto } from '../contract/kb.dto';
import { KbFetchService } from '../kb-fetch.service';

/**
 * In toolset `web`, not `knowledge`: the default toolsets' tool list is at its size budget,
 * and fetching the web is a capability a token should opt into anyway. Reading a pending
 * fetch back is an argument of the same tool rather than a tool of its own, for the same budget.
 */
// Listing only: one line for the error instead of its three plain fields (the web toolset's size bound).
toolListing.add(fetchResultSchema.shape.error.unwrap(), { summary: '{status, code, message} of a failed fetch' });

const spec = defineTool({
  name: 'kb_fetch',
  title: 'Fetch a web page into the knowledge base',
  toolset: 'web',
  permission: 'kb.write',
  scope: 'project',
  description:
    'Fetch a public web page into the knowledge base as UNTRUSTED Markdown; "jobId" alone reads a pending fetch. ' +
    'Example: {"url": "https://example.com/doc"}',
  input: fetchSchema.extend({
    url: fetchSchema.shape.url.optional(),
    // The service checks the id's form (a malformed one is simply not found): no pattern to list.
    jobId: z.string().max(100).optional(),
  }),
  output: fetchResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class KbFetchTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly fetches: KbFetchService) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const { url, jobId, title, retentionTier } = input;
    if ((url === undefined) === (jobId === undefined)) {
      throw new BadRequestError('Pass either url or jobId', undefined, 'invalid_arguments');
    }
    const outcome =
      jobId === undefined
        ? await this.fetches.fetch(call.project, call.principal, { url: url!, title, retentionTier })
        : await this.fetches.status(call.project, call.principal, jobId);
    const structured = toFetchResultDto(outcome);
    if (structured.error) {
      const { code, message } = structured.error;
      return { structured, text: `The fetch (job ${structured.jobId}) failed: ${message} (${code}).` };
    }
    if (!structured.fetched) {
      return {
        structured,
        text: `Still fetching (job ${structured.jobId}); call kb_fetch with {"jobId": "${structured.jobId}"} for the result.`,
      };
    }
    const { document, chunks, flags } = structured.fetched;
    const warning = flags.length > 0 ? ` WARNING: prompt-injection patterns found (${flags.join(', ')}).` : '';
    return {
      structured,
      text: `Fetched ${document.source} into ${document.project} as UNTRUSTED document ${document.id} (${chunks} chunks).${warning}`,
    };
  }
}
