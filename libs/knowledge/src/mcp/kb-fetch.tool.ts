import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { fetchResultSchema, fetchSchema, toFetchResultDto } from '../contract/kb.dto';
import { KbFetchService } from '../kb-fetch.service';

/**
 * In toolset `web`, not `knowledge`: the default toolsets' tool list is at its size budget,
 * and fetching the web is a capability a token should opt into anyway.
 */
const spec = defineTool({
  name: 'kb_fetch',
  title: 'Fetch a web page into the knowledge base',
  toolset: 'web',
  permission: 'kb.write',
  scope: 'project',
  description:
    'Fetch a public web page into the knowledge base as UNTRUSTED Markdown. Example: {"url": "https://example.com/doc"}',
  input: fetchSchema,
  output: fetchResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class KbFetchTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly fetches: KbFetchService) {}

  async run(input: z.output<typeof spec.input>, call: ToolCall) {
    const outcome = await this.fetches.fetch(call.project!, call.principal, input);
    const structured = toFetchResultDto(outcome);
    if (!structured.fetched) {
      return {
        structured,
        text: `Still fetching ${input.url} (job ${structured.jobId}); kb_search finds it when done.`,
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
