import { Test, type TestingModule } from '@nestjs/testing';
import { ConfigModule } from '@cairn/config';
import { ObservabilityModule, ReadinessRegistry } from '@cairn/observability';
import { type FakeModelServer, startFakeModelServer, testConfig } from '@cairn/testing';
import { GENERATOR, type Generator } from './generator';
import { OllamaGenerator, OpenAiGenerator } from './generators';
import { ProvidersModule } from './providers.module';

/** Configuration as the worker would load it; nothing here touches the database or Redis. */
const config = (env: Record<string, string>) =>
  testConfig('postgresql://unused/unused', 'redis://unused:6379', env, 'worker');

describe('ProvidersModule', () => {
  let server: FakeModelServer;
  let moduleRef: TestingModule | undefined;

  beforeEach(async () => {
    server = await startFakeModelServer({ models: ['nomic-embed-text:latest', 'llama3.2:latest'] });
  });
  afterEach(async () => {
    await moduleRef?.close();
    moduleRef = undefined;
    await server.close();
  });

  async function boot(env: Record<string, string>) {
    moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(config(env)), ObservabilityModule, ProvidersModule],
    }).compile();
    await moduleRef.init();
    return {
      generator: moduleRef.get<Generator | null>(GENERATOR),
      readiness: await moduleRef.get(ReadinessRegistry).evaluate(),
    };
  }

  it('provides no generator and no provider checks with the defaults', async () => {
    const { generator, readiness } = await boot({});
    expect(generator).toBeNull();
    expect(readiness.checks).not.toHaveProperty('chat-provider');
    expect(readiness.checks).not.toHaveProperty('embedding-provider');
  });

  it('provides the Ollama generator and checks its model and the embedding model', async () => {
    const { generator, readiness } = await boot({
      CHAT_PROVIDER: 'ollama',
      CHAT_MODEL: 'llama3.2',
      EMBEDDING_PROVIDER: 'ollama',
      EMBEDDING_MODEL: 'all-minilm',
      EMBEDDING_DIMENSIONS: '384',
      OLLAMA_URL: server.url,
    });
    expect(generator).toBeInstanceOf(OllamaGenerator);
    expect(generator?.model).toEqual({ provider: 'ollama', name: 'llama3.2' });
    expect(readiness.checks['chat-provider']).toMatchObject({ ok: true, info: { model: 'llama3.2' } });
    expect(readiness.checks['embedding-provider']).toMatchObject({
      ok: false,
      detail: 'model all-minilm is not pulled: run `ollama pull all-minilm`',
    });
    expect(readiness.ready).toBe(false);

    server.options.chatAnswer = (request) => request.messages.map((message) => message.role).join(',');
    expect(await generator?.generate({ system: 'be brief', prompt: 'hello', maxTokens: 10 })).toBe('system,user');
    expect(server.requests.at(-1)?.body).toMatchObject({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello' },
      ],
      options: { num_predict: 10 },
    });
    expect(server.requests.at(-1)?.body.options).not.toHaveProperty('temperature');
    await generator?.generate({ system: 's', prompt: 'p', maxTokens: 10, temperature: 0 });
    expect(server.requests.at(-1)?.body.options).toEqual({ num_predict: 10, temperature: 0 });
  });

  it('provides the OpenAI-compatible generator, with the key, and JSON mode on request', async () => {
    const { generator } = await boot({
      CHAT_PROVIDER: 'openai',
      CHAT_MODEL: 'llama3.2',
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'sk-configured',
    });
    expect(generator).toBeInstanceOf(OpenAiGenerator);
    server.options.chatAnswer = '{"summary":"short"}';
    const answer = await generator?.generate({ system: 's', prompt: 'p', maxTokens: 50, json: true });
    expect(answer).toBe('{"summary":"short"}');
    expect(server.requests.at(-1)).toMatchObject({
      path: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-configured' },
      body: { max_tokens: 50, response_format: { type: 'json_object' } },
    });
    expect(server.requests.at(-1)?.body).not.toHaveProperty('temperature');
    await generator?.generate({ system: 's', prompt: 'p', maxTokens: 50, temperature: 0 });
    expect(server.requests.at(-1)?.body).toMatchObject({ max_tokens: 50, temperature: 0 });
  });
});
