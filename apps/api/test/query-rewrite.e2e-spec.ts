import { type FakeChatRequest, type FakeModelServer, startFakeModelServer } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

const MODEL = 'llama3.2:latest';
/** A question about one thing to the model-free decomposition: it finds no parts in it. */
const QUESTION = 'What should I pack for the Lisbon trip?';
/** What the model is scripted to see in it; the first matches a memory the question shares no word with. */
const MODEL_PARTS = ['weather in Portugal in May', 'documents needed to enter Portugal'];
const WEATHER = 'Portugal in May is showery: bring a light rain jacket';
const MEMORIES = [
  'The Lisbon trip is booked for the second week',
  'Pack the laptop charger for every work trip',
  'Lisbon office address: Avenida da Liberdade 110',
  WEATHER,
  'Lunch is at noon',
];

interface Recalled {
  body: { results: { memory: { content: string } }[]; report: { notes: string[] } };
}

/**
 * Recall with QUERY_REWRITE=on asks the chat model (here the in-test Ollama-speaking server) for
 * the question's sub-queries and ranks them beside it: a memory that only a sub-query matches
 * is found. Keyword mode, so that without the rewrite nothing lifts that memory (no shared word,
 * no vector neighbourhood). With the setting off, the same chat model is never asked.
 */
describe('query rewrite over REST', () => {
  let server: FakeModelServer;
  const chatCalls = () => server.requests.filter((request) => request.path === '/api/chat');

  beforeAll(async () => {
    server = await startFakeModelServer({
      models: [MODEL],
      chatAnswer: (request: FakeChatRequest) =>
        JSON.stringify({ queries: request.messages.at(-1)?.content.includes(QUESTION) ? MODEL_PARTS : [] }),
    });
  });
  afterAll(() => server.close());

  async function seeded(env: Record<string, string>): Promise<{ api: ApiHarness; w: MemoryWorld }> {
    const api = await startApi({ CHAT_PROVIDER: 'ollama', CHAT_MODEL: MODEL, OLLAMA_URL: server.url, ...env });
    const w = await memoryWorld(api);
    for (const content of MEMORIES) await store(w.agent, w.project, { content });
    return { api, w };
  }
  const recall = async (w: MemoryWorld, query = QUESTION): Promise<Recalled> => {
    const response = await w.agent.post(memoriesUrl(w.project, '/search'), { query, mode: 'keyword', limit: 10 });
    expect(response.status).toBe(200);
    return response as Recalled;
  };
  const contents = (found: Recalled) => found.body.results.map((hit) => hit.memory.content);

  it('off (the default): the model is not asked and the memory only a sub-query matches is not found', async () => {
    const { api, w } = await seeded({});
    try {
      const before = chatCalls().length;
      const found = await recall(w);
      expect(contents(found)).not.toContain(WEATHER);
      expect(contents(found)).toContain(MEMORIES[0]);
      expect(found.body.report.notes.join(' ')).not.toContain('query rewrite');
      expect(chatCalls()).toHaveLength(before);
    } finally {
      await api.close();
    }
  });

  it("on: the model's sub-queries are ranked beside the question, the report says so, and it is asked once", async () => {
    const { api, w } = await seeded({ QUERY_REWRITE: 'on', QUERY_REWRITE_TIMEOUT_MS: '5000' });
    try {
      const before = chatCalls().length;
      const found = await recall(w);
      expect(contents(found)).toContain(WEATHER);
      expect(contents(found)).toContain(MEMORIES[0]);
      expect(contents(found)).not.toContain('Lunch is at noon');
      expect(found.body.report.notes).toContain(
        `query rewrite: ranked 2 sub-queries from ollama:${MODEL} beside the question`,
      );
      expect(chatCalls()).toHaveLength(before + 1);
      expect(chatCalls().at(-1)?.body.options).toMatchObject({ temperature: 0 });

      // Asked again: remembered, no second call.
      expect(contents(await recall(w))).toContain(WEATHER);
      expect(chatCalls()).toHaveLength(before + 1);

      // A model failure costs nothing but the sub-queries: the recall answers, and says why.
      server.fail({ type: 'status', status: 500, path: '/api/chat' });
      const failed = await recall(w, 'What should I pack for the Lisbon trip, exactly?');
      expect(contents(failed)).not.toContain(WEATHER);
      expect(failed.body.report.notes).toContain(`query rewrite: ollama:${MODEL} is unavailable; ranked it whole`);
    } finally {
      await api.close();
    }
  });
});
