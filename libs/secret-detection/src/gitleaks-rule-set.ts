import { z } from 'zod';
import { type GeneratedRuleSet } from './contract/secret.types';
import generated from './gitleaks-rules.generated.json';

/**
 * The typed loader of gitleaks-rules.generated.json (written by
 * tools/secrets/generate-gitleaks-rules.ts from gitleaks' default configuration): the JSON's
 * shape is checked once, when the module loads, so a hand edit or a generator change that breaks
 * it fails at start rather than as a rule that silently never matches. The provenance and
 * licence fields of the file are not part of the rule set and are dropped.
 */
const regexSchema = z.object({ source: z.string().min(1), flags: z.string() });

const allowlistSchema = z.object({
  regexTarget: z.enum(['secret', 'match', 'line']),
  condition: z.enum(['and', 'or']),
  regexes: z.array(regexSchema),
  stopwords: z.array(z.string()),
});

const ruleSchema = z.object({
  id: z.string().min(1),
  description: z.string(),
  source: z.string().min(1),
  flags: z.string(),
  secretGroup: z.number().int().min(0),
  entropy: z.number().min(0),
  keywords: z.array(z.string()),
  allowlists: z.array(allowlistSchema),
});

const ruleSetSchema = z.object({
  source: z.object({ module: z.string(), version: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  globalAllowlist: allowlistSchema,
  rules: z.array(ruleSchema).min(1),
  dropped: z.array(z.object({ id: z.string(), reason: z.string() })),
});

/** A rule set in the generated JSON's shape; throws naming the first field that is not. */
export function loadRuleSet(data: unknown): GeneratedRuleSet {
  const parsed = ruleSetSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`gitleaks rule set: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is malformed'}`);
  }
  return parsed.data;
}

export const GITLEAKS_RULES: GeneratedRuleSet = loadRuleSet(generated);
