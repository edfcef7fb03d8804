import { MetricsService } from '@cairn/observability';
import { createGenerator, ProviderClients } from '@cairn/providers';
import { type FakeChatRequest, type FakeModelServer, startFakeModelServer, testConfig } from '@cairn/testing';
import { queryParts } from './query-parts';
import { QueryRewriting } from './query-rewriting.service';

const MODEL = 'llama3.2:latest';
/** A question the model-free decomposition splits too ("between A and B"). */
const QUESTION = 'How many days passed between the Holi festival and the Sunday mass?';
const MODEL_PARTS = ['date of the Holi festival', 'date of the Sunday mass'];

function rewriting(env: Record<string, string>) {
  const config = testConfig('postgresql://cairn@db:5432/cairn', 'redis://redis:6379', env);
  const metrics = new MetricsService();
  return {
    service: new QueryRewriting(createGenerator(config, new ProviderClients(config)), config, metrics),
    metrics,
  };
}

async function counted(metrics: MetricsService, name: string, outcome?: string): Promise<number> {
  const values = (await metrics.registry.getSingleMetric(name)!.get()).values;
  return values.find((value) => outcome === undefined || value.labels.outcome === outcome)?.value ?? 0;
}

describe('QueryRewriting against a real Ollama-speaking server', () => {
  let server: FakeModelServer;
  const chatCalls = () => server.requests.filter((request) => request.path === '/api/chat');

  beforeAll(async () => {
    server = await startFakeModelServer({ models: [MODEL] });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.options.chatLatencyMs = 0;
    server.options.chatAnswer = JSON.stringify({ queries: MODEL_PARTS });
  });

  const on = (extra: Record<string, string> = {}) =>
    rewriting({
      CHAT_PROVIDER: 'ollama',
      CHAT_MODEL: MODEL,
      OLLAMA_URL: server.url,
      QUERY_REWRITE: 'on',
      QUERY_REWRITE_TIMEOUT_MS: '500',
      ...extra,
    });

  it('is off by default, even with a chat model: the model-free parts, no notes, no call', async () => {
    const { service } = rewriting({ CHAT_PROVIDER: 'ollama', CHAT_MODEL: MODEL, OLLAMA_URL: server.url });
    expect(service.enabled).toBe(false);
    expect(await service.parts(QUESTION)).toEqual({ parts: queryParts(QUESTION), notes: [] });
    expect(chatCalls()).toHaveLength(0);
  });

  it("uses the model's parts, asked with the fixed prompt at temperature 0, and says so", async () => {
    const { service, metrics } = on();
    expect(service.enabled).toBe(true);
    const result = await service.parts(QUESTION);
    expect(result.parts).toEqual(MODEL_PARTS);
    expect(result.notes).toEqual([
      'query rewrite: ranked 2 sub-queries from ollama:llama3.2:latest beside the question',
    ]);
    const [call] = chatCalls();
    expect(call?.body).toMatchObject({ model: MODEL, format: 'json', options: { temperature: 0, num_predict: 200 } });
    expect(call?.body.messages[1]).toEqual({ role: 'user', content: `Question: ${QUESTION}` });
    expect(call?.body.messages[0].content).toContain('sub-questions');
    expect(await counted(metrics, 'cairn_query_rewrite_requests_total', 'ok')).toBe(1);
  });

  it('asks once per question: repeated and concurrent recalls share the answer', async () => {
    const { service, metrics } = on();
    server.options.chatLatencyMs = 100;
    const [first, second] = await Promise.all([service.parts(QUESTION), service.parts(QUESTION)]);
    const third = await service.parts(QUESTION);
    expect(first).toEqual(second);
    expect(third).toEqual(first);
    expect(chatCalls()).toHaveLength(1);
    expect(await counted(metrics, 'cairn_query_rewrite_cache_hits_total')).toBe(2);
    await service.parts('which pets do I have, and what are their names?');
    expect(chatCalls()).toHaveLength(2);
  });

  it('keeps the model-free parts and says why when the model answers after the budget', async () => {
    const { service, metrics } = on({ QUERY_REWRITE_TIMEOUT_MS: '200' });
    server.options.chatLatencyMs = 1_000;
    const started = Date.now();
    const result = await service.parts(QUESTION);
    expect(Date.now() - started).toBeLessThan(900);
    expect(result.parts).toEqual(queryParts(QUESTION));
    expect(result.parts.length).toBeGreaterThan(0);
    expect(result.notes).toEqual([
      `query rewrite: ollama:llama3.2:latest did not answer within 200 ms; ranked its ${result.parts.length} parts found without the model`,
    ]);
    expect(await counted(metrics, 'cairn_query_rewrite_requests_total', 'timeout')).toBe(1);
    // A late answer is not remembered: the next recall asks again.
    server.options.chatLatencyMs = 0;
    expect((await service.parts(QUESTION)).parts).toEqual(MODEL_PARTS);
    expect(chatCalls()).toHaveLength(2);
  });

  it.each([
    ['a 500', { type: 'status', status: 500, path: '/api/chat' } as const],
    ['a reset connection', { type: 'reset', path: '/api/chat' } as const],
  ])('keeps the model-free parts and says why on %s, and does not remember it', async (_label, failure) => {
    const { service, metrics } = on();
    server.fail(failure);
    const result = await service.parts(QUESTION);
    expect(result.parts).toEqual(queryParts(QUESTION));
    expect(result.notes).toEqual([
      `query rewrite: ollama:llama3.2:latest is unavailable; ranked its ${result.parts.length} parts found without the model`,
    ]);
    expect(await counted(metrics, 'cairn_query_rewrite_requests_total', 'error')).toBe(1);
    expect((await service.parts(QUESTION)).parts).toEqual(MODEL_PARTS);
  });

  it('keeps the model-free parts when the answer holds nothing usable, and remembers that', async () => {
    const { service, metrics } = on();
    server.options.chatAnswer = (request: FakeChatRequest) =>
      JSON.stringify({ queries: [request.messages[1]?.content.replace('Question: ', '')] });
    const single = 'what is the name of my dog?';
    expect(await service.parts(single)).toEqual({
      parts: [],
      notes: ['query rewrite: ollama:llama3.2:latest gave no usable sub-queries; ranked it whole'],
    });
    await service.parts(single);
    expect(chatCalls()).toHaveLength(1);
    expect(await counted(metrics, 'cairn_query_rewrite_requests_total', 'empty')).toBe(1);
  });
});
