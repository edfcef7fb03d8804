import { createHash } from 'node:crypto';

/**
 * Identity of what is searchable and embedded: the content plus the agent's expansion
 * keywords. A change to either needs a new vector.
 */
export function memoryContentHash(content: string, keywords: readonly string[]): string {
  return createHash('sha256').update(content).update('\u0000').update(keywords.join('\u0001')).digest('hex');
}

/** The text the embedder sees for a memory. */
export function memoryEmbeddingText(content: string, keywords: readonly string[]): string {
  return keywords.length > 0 ? `${content}\n${keywords.join(', ')}` : content;
}
