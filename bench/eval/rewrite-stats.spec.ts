import { testConfig } from '@cairn/testing';
import { rewriteEnv } from './provider';
import { formatRewriteStats, rewriterSetup, rewriteStats } from './rewrite-stats';

const config = (env: Record<string, string>) =>
  testConfig('postgresql://cairn@db:5432/cairn', 'redis://redis:6379', env);

describe('the eval with --rewrite', () => {
  it('configures the rewriting app through the settings an operator would set', () => {
    const env = rewriteEnv({ url: 'http://gpu:11434', model: 'qwen2.5:3b', provider: 'ollama', timeoutMs: 900 });
    expect(env).toEqual({
      CHAT_PROVIDER: 'ollama',
      CHAT_MODEL: 'qwen2.5:3b',
      OLLAMA_URL: 'http://gpu:11434',
      QUERY_REWRITE: 'on',
      QUERY_REWRITE_TIMEOUT_MS: '900',
    });
    expect(rewriterSetup(config(env))).toEqual({
      server: 'http://gpu:11434',
      provider: 'ollama',
      model: 'qwen2.5:3b',
      timeoutMs: 900,
    });
    expect(rewriteEnv({ url: 'http://vllm:8000/v1', model: 'm', provider: 'openai' })).toMatchObject({
      CHAT_PROVIDER: 'openai',
      OPENAI_BASE_URL: 'http://vllm:8000/v1',
    });
    expect(() => rewriteEnv({ url: 'http://gpu:11434', provider: 'ollama' })).toThrow('--rewrite-model');
    expect(rewriterSetup(config({}))).toBeUndefined();
  });

  it("counts, from each recall's notes, the questions ranked with the model's sub-queries and those that fell back", () => {
    const model = 'ollama:qwen2.5:3b';
    const stats = rewriteStats([
      [`query rewrite: ranked 2 sub-queries from ${model} beside the question`],
      [
        'the embedding provider is unavailable: searched by keyword only',
        `query rewrite: ${model} is unavailable; ranked it whole`,
      ],
      [`query rewrite: ${model} did not answer within 900 ms; ranked its 2 parts found without the model`],
      [`query rewrite: ${model} gave no usable sub-queries; ranked it whole`],
      [],
    ]);
    expect(stats).toEqual({ asked: 4, fromModel: 1, fellBack: { timeout: 1, error: 1, empty: 1 } });
    const setup = { server: 'http://gpu:11434', provider: 'ollama', model: 'qwen2.5:3b', timeoutMs: 900 } as const;
    expect(formatRewriteStats('hybrid+rewrite', setup, stats)).toBe(
      'hybrid+rewrite: 4 questions to qwen2.5:3b (ollama at http://gpu:11434), 1 ranked with its sub-queries; ' +
        '3 fell back to the model-free parts (1 late past 900 ms, 1 failed, 1 nothing usable)',
    );
  });
});
