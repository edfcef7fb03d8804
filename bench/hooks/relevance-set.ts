import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The labelled set, relative to the repository root. */
export const RELEVANCE_SET_FILE = join('bench', 'hooks', 'relevance-set.json');

const memorySchema = z.strictObject({
  key: z.string().min(1),
  category: z.string().min(1),
  tags: z.array(z.string()).default([]),
  content: z.string().min(1),
});

const setSchema = z.strictObject({
  about: z.string(),
  projects: z.array(
    z.strictObject({
      slug: z.string().min(1),
      memories: z.array(memorySchema).min(1),
      prompts: z.array(z.strictObject({ prompt: z.string().min(1), relevant: z.array(z.string()).min(1) })),
      foreign: z.array(z.string().min(1)),
    }),
  ),
  general: z.array(
    z.strictObject({
      prompt: z.string().min(1),
      relevantIn: z.record(z.string(), z.array(z.string()).min(1)).optional(),
    }),
  ),
});

export type LabelledMemory = z.infer<typeof memorySchema>;

/** Where a case comes from: a prompt about the project, one about another, or a general one. */
export type CaseKind = 'related' | 'foreign' | 'general';

/** One prompt asked in one project, with the memories (keys) worth injecting for it; none for an unrelated one. */
export interface RelevanceCase {
  readonly project: string;
  readonly prompt: string;
  readonly kind: CaseKind;
  readonly relevant: ReadonlySet<string>;
}

export interface RelevanceSet {
  readonly projects: readonly { readonly slug: string; readonly memories: readonly LabelledMemory[] }[];
  readonly cases: readonly RelevanceCase[];
}

/**
 * Reads and checks the set: every label names a memory of its project, and every general prompt
 * is asked in every project (unrelated there unless `relevantIn` names memories).
 */
export function loadRelevanceSet(path: string): RelevanceSet {
  const raw = setSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  const cases: RelevanceCase[] = [];
  for (const project of raw.projects) {
    const keys = new Set(project.memories.map((memory) => memory.key));
    const labelled = (labels: readonly string[], prompt: string) => {
      for (const key of labels) {
        if (!keys.has(key)) throw new Error(`${path}: "${prompt}" names ${key}, not a memory of ${project.slug}`);
      }
      return new Set(labels);
    };
    for (const { prompt, relevant } of project.prompts) {
      cases.push({ project: project.slug, prompt, kind: 'related', relevant: labelled(relevant, prompt) });
    }
    for (const prompt of project.foreign) {
      cases.push({ project: project.slug, prompt, kind: 'foreign', relevant: new Set() });
    }
    for (const { prompt, relevantIn } of raw.general) {
      const relevant = labelled(relevantIn?.[project.slug] ?? [], prompt);
      cases.push({ project: project.slug, prompt, kind: relevant.size > 0 ? 'related' : 'general', relevant });
    }
  }
  return { projects: raw.projects.map(({ slug, memories }) => ({ slug, memories })), cases };
}
