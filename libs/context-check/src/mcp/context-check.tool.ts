import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { ContextCheck } from '../context-check.service';
import { contextCheckInputSchema, contextCheckResultSchema } from '../contract/context-check.dto';
import { type ContextCheckResult } from '../contract/context-check.types';

const spec = defineTool({
  name: 'context_check',
  title: 'Answer from what is indexed, with confidence',
  toolset: 'harness',
  permission: 'memory.read',
  scope: 'project',
  description: [
    'Before reading files: asks memories, the knowledge base and the code index at once and returns the best',
    'evidence with a calibrated confidence; when low, what to read next. Example: {"question": "how are uploads batched?"}',
  ].join(' '),
  input: contextCheckInputSchema,
  output: contextCheckResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class ContextCheckTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly contextCheck: ContextCheck) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const result = await this.contextCheck.check(call.project, call.principal, input);
    return { structured: result, text: checkText(result) };
  }
}

function checkText(result: ContextCheckResult): string {
  const lines = [`Confidence ${result.confidence} (${result.level}).`];
  for (const item of result.evidence) {
    lines.push(
      `--- ${item.source} ${item.ref} (covers ${Math.round(item.coverage * 100)}% of the question)`,
      item.text,
    );
  }
  if (result.readNext.length > 0) {
    lines.push(
      'Read next:',
      ...result.readNext.map((next) => `- ${next.tool} ${JSON.stringify(next.arguments)}: ${next.why}`),
    );
  }
  return [...lines, ...result.notes.map((note) => `Note: ${note}`)].join('\n');
}
