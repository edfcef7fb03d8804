import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type RelevanceReport } from '@cairn/search';
import { type z } from 'zod';
import { recallResultSchema, recallSchema, toListFilter } from '../contract/memory-query.dto';
import { toMemoryView } from '../contract/memory.dto';
import { MemoryRecall } from '../memory-recall.service';
import { viewerOf } from '../memory-access';
import { datesLine, memoryLine } from './memory-text';
// What the tool list shows of the shared schemas (a memory, a search explanation).
import './memory-tool-listing';

const spec = defineTool({
  name: 'memory_recall',
  title: 'Recall memories',
  toolset: 'core',
  permission: 'memory.read',
  scope: 'project',
  description: [
    "Search this project's and tenant-wide memories by question or keywords, best first.",
    // The default toolsets' list has no room for both this and the threshold's own line (tool-list-size.e2e-spec).
    'Example: {"query": "how do we deploy?", "minRelevance": "default"}',
  ].join(' '),
  input: recallSchema,
  output: recallResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryRecallTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly recall: MemoryRecall) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const result = await this.recall.recall(call.project, viewerOf(call.principal), {
      ...input,
      filter: toListFilter(input.filters),
    });
    const results = result.results.map((hit) => ({ ...hit, memory: toMemoryView(hit.memory) }));
    const notes = [...result.report.notes, ...(result.report.temporal?.notes ?? [])].map((note) => `note: ${note}`);
    const dates = datesLine(result.report.temporal);
    const lines = results.map((hit, index) => memoryLine(hit.memory, index));
    const threshold = thresholdText(result.report.relevance);
    const head =
      results.length === 0
        ? `No memories match "${input.query.slice(0, 80)}"${threshold}.`
        : `${results.length} memories (${result.report.mode}${reranked(result.report.rerank)}${threshold}):`;
    return {
      structured: { results, report: { ...result.report, notes: [...result.report.notes] } },
      text: [head, ...lines, ...dates, ...notes].join('\n'),
    };
  }
}

/** ", relevance ≥ 0.4 (default for <model>), 3 below left out" when a threshold applied. */
function thresholdText(relevance: RelevanceReport | undefined): string {
  if (!relevance || relevance.threshold === null) return '';
  const which = relevance.source === 'default' ? ` (default for ${relevance.calibration})` : '';
  const dropped = relevance.dropped > 0 ? `, ${relevance.dropped} below it left out` : '';
  return `, relevance ≥ ${relevance.threshold}${which}${dropped}`;
}

function reranked(rerank: { model: string; applied: boolean } | undefined): string {
  return rerank?.applied ? `, reranked by ${rerank.model}` : '';
}
