import { searchQuerySchema, SEARCH_MODES } from '@cairn/search';
import { z } from 'zod';
import { CODE_SYMBOL_KINDS } from './code-index.types';
import { branchSchema } from './code-index.dto';

/** Inputs and outputs of code_search and code_symbol (MCP). */
export const codeSearchInputSchema = z.strictObject({
  query: searchQuerySchema.describe('A symbol name (exact or approximate) or words describing the code'),
  branch: branchSchema.optional().describe('Default: the branch indexed last'),
  mode: z.enum(SEARCH_MODES).default('hybrid'),
  kinds: z
    .array(z.enum(CODE_SYMBOL_KINDS))
    .min(1)
    .max(CODE_SYMBOL_KINDS.length)
    .optional()
    .describe('Only these symbol kinds'),
  limit: z.number().int().min(1).max(30).default(8),
});

const symbolHitSchema = z.object({
  name: z.string(),
  kind: z.string(),
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  signature: z.string(),
  container: z.string().nullable(),
  exported: z.boolean(),
  hash: z.string().describe('SHA-256 of the file as indexed'),
  commit: z.string().nullable(),
  score: z.number(),
});

export const codeSearchResultSchema = z.object({
  branch: z.string(),
  commit: z.string().nullable(),
  symbols: z.array(symbolHitSchema).describe('Definitions whose name matches the query'),
  passages: z
    .array(
      z.object({
        path: z.string(),
        language: z.string().nullable(),
        startLine: z.number().int(),
        endLine: z.number().int(),
        text: z.string(),
        hash: z.string(),
        commit: z.string().nullable(),
        score: z.number(),
      }),
    )
    .describe('Code passages ranked by keyword and meaning'),
  mode: z.enum(SEARCH_MODES),
  notes: z.array(z.string()),
});

export const codeSymbolInputSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z_$][\w$]{0,199}$/, 'must be one identifier (letters, digits, _ or $), at most 200 characters')
    .describe('The symbol name, e.g. "CodeParser" or "parse"'),
  branch: branchSchema.optional().describe('Default: the branch indexed last'),
  fuzzy: z.boolean().default(false).describe('Also definitions with similar names'),
  referencesLimit: z.number().int().min(0).max(200).default(30),
});

export const codeSymbolResultSchema = z.object({
  branch: z.string(),
  commit: z.string().nullable(),
  definitions: z.array(symbolHitSchema),
  references: z.array(z.object({ path: z.string(), line: z.number().int(), text: z.string(), hash: z.string() })),
  moreReferences: z.boolean(),
});
