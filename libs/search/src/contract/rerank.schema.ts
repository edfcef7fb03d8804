import { z } from 'zod';

/** {@link RerankExplain} for the memory and knowledge-base result schemas. */
export const rerankExplainSchema = z.object({
  score: z.number().describe("The reranker's relevance score"),
  rank: z.number().int().describe('Position after reranking'),
  fusedRank: z.number().int().describe('Position in the fused order, before reranking'),
});

/** {@link RerankReport} for the memory and knowledge-base search reports. */
export const rerankReportSchema = z.object({
  model: z.string(),
  candidates: z.number().int().describe('Fused results sent to the reranker'),
  applied: z.boolean().describe('false: it failed or was late, the fused order stands (see notes)'),
  ms: z.number().int().describe('How long the search waited for it'),
});
