import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { CodeQueries, type CodeSearchResult } from '../code-queries.service';
import { codeSearchInputSchema, codeSearchResultSchema } from '../contract/code-query.dto';

const spec = defineTool({
  name: 'code_search',
  title: 'Search the code index',
  toolset: 'harness',
  permission: 'kb.read',
  scope: 'project',
  description: [
    "Search the project's indexed code before reading files: symbols by name (exact or approximate) and code",
    'passages by words or meaning, each with path, lines and the hash it was indexed at.',
    'Example: {"query": "where are upload batches split"}',
  ].join(' '),
  input: codeSearchInputSchema,
  output: codeSearchResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class CodeSearchTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly code: CodeQueries) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const result = await this.code.search(call.project, call.principal, input);
    return { structured: result, text: searchText(result) };
  }
}

function searchText(result: CodeSearchResult): string {
  const lines = [`Branch ${result.branch}${result.commit ? ` at ${result.commit.slice(0, 12)}` : ''}.`];
  if (result.symbols.length > 0) {
    lines.push('Symbols:');
    for (const hit of result.symbols)
      lines.push(`- ${hit.signature} (${hit.kind}) ${hit.path}:${hit.startLine}-${hit.endLine}`);
  }
  if (result.passages.length > 0) {
    lines.push('Passages:');
    for (const hit of result.passages) lines.push(`--- ${hit.path}:${hit.startLine}-${hit.endLine}\n${hit.text}`);
  }
  if (result.symbols.length === 0 && result.passages.length === 0) lines.push('Nothing found.');
  return [...lines, ...result.notes.map((note) => `Note: ${note}`)].join('\n');
}
