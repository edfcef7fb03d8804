import { Injectable } from '@nestjs/common';
import { withConfiguredMaxLength } from '@cairn/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall, toolListing } from '@cairn/mcp';
import { z } from 'zod';
import { indexDocumentSchema, indexResultSchema, toDocumentDto } from '../contract/kb.dto';
import { KnowledgeService } from '../knowledge.service';

/**
 * What one tool call may carry. Requests are also bounded by the HTTP body limit (1 MB by
 * default) and the service applies KB_DOCUMENT_MAX_CHARS after normalisation, the limit the
 * tool list states.
 */
const TEXT_MAX_CHARS = 1_000_000;

// What the tool list says of the REST schema's arguments (listing only: the REST API keeps its own).
toolListing.add(indexDocumentSchema.shape.source, {
  description: 'URL, file path or "session:<id>"',
});
toolListing.add(indexDocumentSchema.shape.sourceType, { description: '' });
toolListing.add(indexDocumentSchema.shape.retentionTier, { description: 'How long it is kept' });
toolListing.add(indexResultSchema.shape.document, {
  summary: 'The stored document: id, source, title, sourceType, retentionTier, chunkCount, expiresAt…',
});
toolListing.add(indexResultSchema.shape.duplicate, {
  description: 'The same content was already indexed: nothing stored',
});
toolListing.add(indexResultSchema.shape.replaced, { description: 'Older versions of this source replaced' });

const spec = defineTool({
  name: 'kb_index',
  title: 'Index text into the knowledge base',
  toolset: 'knowledge',
  permission: 'kb.write',
  scope: 'project',
  description: [
    'Add a document (notes, README, fetched page) to the knowledge base for kb_search; the same source again',
    'replaces it. Third-party content: sourceType "external".',
    'Example: {"source": "docs/deploy.md", "text": "# Deploying\\nStaging deploys run on merge..."}',
  ].join(' '),
  input: indexDocumentSchema.extend({
    text: withConfiguredMaxLength(z.string().min(1).max(TEXT_MAX_CHARS), 'kbDocumentMaxChars').describe(
      'Plain text or markdown',
    ),
  }),
  output: indexResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class KbIndexTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly knowledge: KnowledgeService) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const { source, title, text, sourceType, retentionTier } = input;
    const result = await this.knowledge.index(call.project, call.principal, {
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
      structured: { ...result, document, redacted: [...result.redacted] },
      text:
        `Indexed "${document.source}" in ${document.project} as document ${document.id}: ${what}; ` +
        `embedding ${result.embedding === 'queued' ? 'queued' : 'not queued'}; kept until ${document.expiresAt.slice(0, 10)}.` +
        (result.redacted.length > 0
          ? ` Secrets replaced by placeholders: ${result.redacted.map((r) => `${r.type} ×${r.count}`).join(', ')}.`
          : ''),
    };
  }
}
