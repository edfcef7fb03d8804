import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { CodeQueries, type SymbolLookup } from '../code-queries.service';
import { codeSymbolInputSchema, codeSymbolResultSchema } from '../contract/code-query.dto';

const spec = defineTool({
  name: 'code_symbol',
  title: 'Definition and references of a symbol',
  toolset: 'harness',
  permission: 'kb.read',
  scope: 'project',
  description: [
    'Where a function, class, method, type or constant is defined (file, lines, signature) and every line that',
    'references it by name, from the code index. Example: {"name": "CodeParser"}',
  ].join(' '),
  input: codeSymbolInputSchema,
  output: codeSymbolResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class CodeSymbolTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly code: CodeQueries) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const result = await this.code.symbol(call.project, call.principal, input);
    return { structured: result, text: symbolText(input.name, result) };
  }
}

function symbolText(name: string, result: SymbolLookup): string {
  if (result.definitions.length === 0 && result.references.length === 0) {
    return `No symbol named "${name}" on branch ${result.branch}; try code_search or {"fuzzy": true}.`;
  }
  const lines = result.definitions.map(
    (hit) =>
      `Defined: ${hit.path}:${hit.startLine}-${hit.endLine} ${hit.kind}${hit.container ? ` in ${hit.container}` : ''}: ${hit.signature}`,
  );
  lines.push(`${result.references.length}${result.moreReferences ? '+' : ''} references:`);
  for (const ref of result.references) lines.push(`- ${ref.path}:${ref.line}: ${ref.text}`);
  return lines.join('\n');
}
