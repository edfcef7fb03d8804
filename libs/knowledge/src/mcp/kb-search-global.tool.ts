import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { globalSearchSchema, searchResultSchema } from '../contract/kb.dto';
import { KbSearchService } from '../kb-search.service';
import { searchText } from './kb-text';

const spec = defineTool({
  name: 'kb_search_global',
  title: 'Search all knowledge bases',
  toolset: 'knowledge',
  permission: 'search.global',
  // Session scope: the search covers the token's projects itself (never more), not one project.
  scope: 'session',
  description: [
    'Search the knowledge bases of every project this token may read at once, e.g. to find how another repository',
    'solved the same problem. Optional "projects" narrows the search; projects outside the token are never searched',
    '(they are reported in the notes). Each passage names its project.',
    'Example: {"query": "retry policy for webhook deliveries", "projects": ["billing-api", "notifications"], "limit": 8}',
  ].join(' '),
  input: globalSearchSchema,
  output: searchResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class KbSearchGlobalTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly search: KbSearchService) {}

  async run(input: z.output<typeof spec.input>, call: ToolCall) {
    const result = await this.search.searchGlobal(call.principal, input);
    return { structured: result, text: searchText(result, input.query) };
  }
}
