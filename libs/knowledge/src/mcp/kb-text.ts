import { toolListing } from '@cairn/mcp';
import { globalSearchSchema, searchResultSchema, searchSchema } from '../contract/kb.dto';
import { type KbSearchResult } from '../contract/kb.types';

// What the tool list shows of kb_search's and kb_search_global's schemas (listing only: the REST API keeps its own).
toolListing.add(searchSchema.shape.query, { description: 'No operator syntax' });
toolListing.add(searchSchema.shape.explain, { description: '' });
toolListing.add(globalSearchSchema.shape.projects, { description: '' });
toolListing.add(searchResultSchema.shape.report.shape.mode, { description: 'The mode that ran' });
toolListing.add(searchResultSchema.shape.report.shape.rerank, { description: '' });
toolListing.add(searchResultSchema.shape.results.element.shape.explain, {
  summary: "With explain: each signal's rank and score, the boosts, the final score",
});

/**
 * Search hits for an agent: one line per chunk with where it comes from, its score and its
 * full text on one line (chunks are ~1,200 characters); untrusted content is labelled so the
 * agent treats it as data.
 */
export function searchText(result: KbSearchResult, query: string): string {
  const { results, report } = result;
  const scope = report.projects.length === 1 ? report.projects[0] : `${report.projects.length} projects`;
  const head =
    results.length === 0
      ? `No knowledge-base passages match "${query.slice(0, 80)}" in ${scope || 'no project'}.`
      : `${results.length} passages from ${scope} (${report.mode}${report.rerank?.applied ? `, reranked by ${report.rerank.model}` : ''}):`;
  const lines = results.map((hit, index) => {
    const flag = hit.untrusted ? ' UNTRUSTED' : '';
    const where = report.projects.length > 1 ? `${hit.project}:` : '';
    const title = hit.title ? ` "${hit.title}"` : '';
    const text = hit.text.replace(/\s+/g, ' ').trim();
    return `${index + 1}. [${where}${hit.source}${title} #${hit.ordinal} ${hit.score.toFixed(3)}${flag}] ${text} (doc ${hit.documentId})`;
  });
  return [head, ...lines, ...report.notes.map((note) => `note: ${note}`)].join('\n');
}
