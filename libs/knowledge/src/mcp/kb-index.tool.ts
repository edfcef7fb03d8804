import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { indexDocumentSchema, indexResultSchema, toDocumentDto } from '../contract/kb.dto';
import { KnowledgeService } from '../knowledge.service';

/**
 * What one tool call may carry. Requests are also bounded by the HTTP body limit (1 MB by
 * default) and the service applies KB_DOCUMENT_MAX_CHARS after normalisation.
 */
const TEXT_MAX_CHARS = 1_000_000;

const spec = defineTool({
  name: 'kb_index',
  title: 'Index text into the knowledge base',
  toolset: 'knowledge',
  permission: 'kb.write',
  scope: 'project',
  description: [
    "Add a document (design notes, a README, an API reference, a fetched web page) to the project's knowledge base so",
    'kb_search finds its passages. Searchable by keyword at once, semantically once embedded. Indexing the same source',
    'again with new text replaces the old version; identical text is a no-op. Mark fetched or pasted third-party',
    'content sourceType "external": it is returned labelled untrusted.',
    'Example: {"source": "docs/deploy.md", "title": "Deploying", "text": "# Deploying\\nStaging deploys run on merge..."}',
  ].join(' '),
  input: indexDocumentSchema.extend({
    text: z
      .string()
      .min(1)
      .max(TEXT_MAX_CHARS)
      .describe('Plain text or markdown; at most KB_DOCUMENT_MAX_CHARS (500,000 by default) after normalisation'),
  }),
  output: indexResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class KbIndexTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly knowledge: KnowledgeService) {}

  async run(input: z.output<typeof spec.input>, call: ToolCall) {
    const { source, title, text, sourceType, retentionTier } = input;
    const result = await this.knowledge.index(call.project!, call.principal, {
      source,
      title,
      text,
      sourceType,
      retentionTier,
    });
    const document = toDocumentDto(result.document);
    const what = result.duplicate
      ? 'unchanged (same text already indexed)'
      : `${result.chunks} chunks${result.replaced > 0 ? `, replaced ${result.replaced} older version(s)` : ''}`;
    return {
      structured: { ...result, document },
      text:
        `Indexed "${document.source}" in ${document.project} as document ${document.id}: ${what}; ` +
        `embedding ${result.embedding === 'queued' ? 'queued' : 'not queued'}; kept until ${document.expiresAt.slice(0, 10)}.`,
    };
  }
}
