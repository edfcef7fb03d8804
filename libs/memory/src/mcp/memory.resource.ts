import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { McpResource, type McpResourceHandler, type ResourceContents } from '@cairn/mcp';
import { toMemoryView } from '../contract/memory.dto';
import { MemoryLookup } from '../memory-lookup.service';
import { authorLabel } from './memory-text';

const TEMPLATE = 'cairn://memories/{id}';

/** One memory as a compact markdown document an agent (or its user) can attach as context. */
@Injectable()
@McpResource({
  name: 'memory',
  title: 'A memory',
  uriTemplate: TEMPLATE,
  description: 'One memory by id: its content, category, importance, source and flags, as markdown.',
  mimeType: 'text/markdown',
  permission: 'memory.read',
})
export class MemoryResource implements McpResourceHandler {
  constructor(private readonly lookup: MemoryLookup) {}

  /** Memories are too many to enumerate; clients address them through the template. */
  list(): Promise<{ uri: string; name: string; title?: string }[]> {
    return Promise.resolve([]);
  }

  async read(params: Record<string, string>, principal: SessionPrincipal): Promise<ResourceContents> {
    const memory = toMemoryView(await this.lookup.visibleTo(principal, params.id));
    const flags = [
      memory.pinned ? 'pinned' : '',
      memory.stale ? 'stale (source changed)' : '',
      memory.archived ? 'archived' : '',
      memory.supersededBy ? `superseded by ${memory.supersededBy}` : '',
    ].filter(Boolean);
    const source = memory.source
      ? `${memory.source.path}${memory.source.line ? `:${memory.source.line}` : ''}`
      : undefined;
    const facts = [
      `- ${memory.category}, importance ${memory.importance}, confidence ${memory.confidence}`,
      `- project: ${memory.project ?? 'tenant-wide'}`,
      `- scope: ${memory.scope}`,
      memory.tags.length ? `- tags: ${memory.tags.join(', ')}` : '',
      memory.keywords.length ? `- keywords: ${memory.keywords.join(', ')}` : '',
      source ? `- source: ${source}` : '',
      flags.length ? `- flags: ${flags.join(', ')}` : '',
      `- v${memory.version} by ${authorLabel(memory.author)}, created ${memory.createdAt.slice(0, 10)}, updated ${memory.updatedAt.slice(0, 10)}`,
    ];
    return {
      uri: TEMPLATE.replace('{id}', memory.id),
      mimeType: 'text/markdown',
      text: [`# Memory ${memory.id}`, '', memory.content, '', ...facts.filter(Boolean)].join('\n'),
    };
  }
}
