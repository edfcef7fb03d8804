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

/** Content shorter than this goes to the reranker with the memory's keywords. */
const RERANK_SHORT_CHARS = 200;
/** Cross-encoders read about 512 tokens of query and document together; the rest is not sent. */
const RERANK_MAX_CHARS = 2_000;

/**
 * The text the reranker judges a memory by: its content, and for a short one (a terse fact
 * whose question may use other words) the agent's expansion keywords too.
 */
export function memoryRerankText(content: string, keywords: readonly string[]): string {
  const text =
    content.length < RERANK_SHORT_CHARS && keywords.length > 0 ? `${content}\n${keywords.join(', ')}` : content;
  return text.slice(0, RERANK_MAX_CHARS);
}
