import { searchQuerySchema } from '@cairn/search';
import { z } from 'zod';

export const contextCheckInputSchema = z.strictObject({
  question: searchQuerySchema.describe('What you want to know about the project, in words'),
  limit: z.number().int().min(1).max(10).default(5).describe('Pieces of evidence to return, best first'),
});

export const contextCheckResultSchema = z.object({
  confidence: z.number().min(0).max(1).describe('Calibrated probability that the best evidence answers the question'),
  level: z.enum(['high', 'medium', 'low']),
  evidence: z.array(
    z.object({
      source: z.enum(['memory', 'knowledge', 'code', 'symbol']),
      ref: z.string().describe('memory:<id>, a knowledge-base source, or path:start-end'),
      title: z.string().nullable(),
      text: z.string(),
      score: z.number().describe("The source's own ranking score"),
      coverage: z.number().describe("Share of the question's terms this piece contains"),
    }),
  ),
  readNext: z
    .array(z.object({ tool: z.string(), arguments: z.record(z.string(), z.string()), why: z.string() }))
    .describe('When confidence is low: what to read next instead of guessing'),
  signals: z.object({ coverage: z.number(), agreement: z.number(), symbol: z.number(), margin: z.number() }),
  notes: z.array(z.string()),
});
