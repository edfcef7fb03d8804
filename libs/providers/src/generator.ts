/** A chat/completion model used for summaries and fact extraction. */
export interface GenerationRequest {
  /** Instructions; never contains user content. */
  readonly system: string;
  /** The task, with user content fenced as data (see `fenceUserContent` in @cairn/generation). */
  readonly prompt: string;
  /** Upper bound on the answer's length. */
  readonly maxTokens: number;
  /** Ask the provider for a JSON answer (Ollama `format: "json"`, OpenAI `response_format`). */
  readonly json?: boolean;
  /** Sampling temperature (0: the same answer for the same question); the provider's default when absent. */
  readonly temperature?: number;
}

export interface GeneratorModel {
  readonly provider: 'ollama' | 'openai';
  readonly name: string;
}

export interface Generator {
  readonly model: GeneratorModel;
  generate(request: GenerationRequest, signal?: AbortSignal): Promise<string>;
}

/**
 * Injection token for the active generator, or `null` when CHAT_PROVIDER=none: callers then
 * use their deterministic fallback (truncation for summaries, rules for extraction).
 */
export const GENERATOR = Symbol('GENERATOR');
