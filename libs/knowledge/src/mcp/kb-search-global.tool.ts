import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type SessionToolCall, toolListing } from '@cairn/mcp';
import { z } from 'zod';
import { globalSearchSchema, searchResultSchema } from '../contract/kb.dto';
import { KbSearchService } from '../kb-search.service';
import { searchText } from './kb-text';

/**
 * kb_search's answer. The passages are a copy of kb_search's (the same validation) that the
 * tool list names instead of repeating kb_search's fields for them.
 */
const passageSchema = searchResultSchema.shape.results.element.clone();
toolListing.add(passageSchema, { summary: 'A passage, as kb_search returns it' });
const globalResultSchema = searchResultSchema.extend({ results: z.array(passageSchema) });

const spec = defineTool({
  name: 'kb_search_global',
  title: 'Search all knowledge bases',
  toolset: 'knowledge',
  permission: 'search.global',
  // Session scope: the search covers the token's projects itself (never more), not one project.
  scope: 'session',
  description: [
    'kb_search over every project this token may read, e.g. how another repository solved a problem;',
    '"projects" narrows it. Example: {"query": "webhook retry policy", "projects": ["billing-api"]}',
  ].join(' '),
  input: globalSearchSchema,
  output: globalResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class KbSearchGlobalTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly search: KbSearchService) {}

  async run(input: z.output<typeof spec.input>, call: SessionToolCall) {
    const result = await this.search.searchGlobal(call.principal, input);
    return { structured: result, text: searchText(result, input.query) };
  }
}
