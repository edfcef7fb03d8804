export interface ChatMessage {
  readonly role: 'system' | 'user';
  readonly content: string;
}

/** What the readiness check needs of a client: who it is and which models it serves. */
export interface ModelCatalogClient {
  readonly provider: 'ollama' | 'openai';
  /** "Ollama", "OpenAI-compatible server". */
  readonly label: string;
  /** Base URL without credentials. */
  readonly where: string;
  hasModel(model: string, signal?: AbortSignal, timeoutMs?: number): Promise<boolean>;
}

/**
 * Whether `wanted` is among `available`. Ollama names carry a tag and an untagged name
 * means `:latest`, so `nomic-embed-text` matches `nomic-embed-text:latest`.
 */
export function modelNameMatches(wanted: string, available: readonly string[]): boolean {
  const normalise = (name: string) => {
    const lastSegment = name.slice(name.lastIndexOf('/') + 1);
    return lastSegment.includes(':') ? name : `${name}:latest`;
  };
  const target = normalise(wanted);
  return available.some((name) => normalise(name) === target);
}
