import { ProviderError } from '@cairn/providers';
import { CoalescingEmbedder } from './coalescing-embedder';
import { type Embedder, type EmbeddingModel } from './embedding-model';

const MODEL: EmbeddingModel = { id: 'test-model-2', provider: 'ollama', dimensions: 2, builtIn: false };

/**
 * A provider stand-in whose requests complete when the test says so, recording what each
 * request carried and how many were open at once. A text containing "poison" makes the
 * whole request it travels in fail as bad input.
 */
class GatedProvider implements Embedder {
  readonly model = MODEL;
  readonly requests: string[][] = [];
  private readonly gates: (() => void)[] = [];
  open = 0;
  maxOpen = 0;
  failWith: ProviderError | undefined;

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.requests.push([...texts]);
    this.open += 1;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    await new Promise<void>((resolve) => this.gates.push(resolve));
    this.open -= 1;
    if (this.failWith) throw this.failWith;
    if (texts.some((text) => text.includes('poison'))) throw new ProviderError('bad_request', 'input rejected', 400);
    return texts.map((text) => Float32Array.from([text.length, 1]));
  }

  /** Completes every open request, and keeps doing so until nothing is left. */
  async drain(): Promise<void> {
    for (let round = 0; round < 100; round += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      const gates = this.gates.splice(0);
      if (gates.length === 0 && this.open === 0) return;
      for (const gate of gates) gate();
    }
  }
}

const vectorOf = (text: string) => [text.length, 1];

describe('CoalescingEmbedder', () => {
  let provider: GatedProvider;
  let embedder: CoalescingEmbedder;

  beforeEach(() => {
    provider = new GatedProvider();
    embedder = new CoalescingEmbedder(provider, { batchSize: 16, maxInFlight: 1 });
  });

  it('sends a text at once when the provider is idle', () => {
    void embedder.embed(['first']);
    expect(provider.requests).toEqual([['first']]);
  });

  it('lets texts that arrive during a request leave together, each caller getting its own vectors', async () => {
    const first = embedder.embed(['a']);
    const later = ['bb', 'ccc', 'dddd'].map((text) => embedder.embed([text]));
    const pair = embedder.embed(['eeeee', 'ffffff']);
    expect(provider.requests).toEqual([['a']]);
    await provider.drain();
    expect(provider.requests).toEqual([['a'], ['bb', 'ccc', 'dddd', 'eeeee', 'ffffff']]);
    expect((await first).map((v) => [...v])).toEqual([vectorOf('a')]);
    expect(await Promise.all(later.map(async (p) => (await p).map((v) => [...v])))).toEqual([
      [vectorOf('bb')],
      [vectorOf('ccc')],
      [vectorOf('dddd')],
    ]);
    expect((await pair).map((v) => [...v])).toEqual([vectorOf('eeeee'), vectorOf('ffffff')]);
  });

  it('fills requests up to the batch size, keeps whole callers together and never exceeds its slots', async () => {
    embedder = new CoalescingEmbedder(provider, { batchSize: 4, maxInFlight: 2 });
    const calls = [['1'], ['2'], ['3', '4', '5'], ['6'], ['7', '8', '9', '10', '11', '12'], ['13']].map((texts) =>
      embedder.embed(texts),
    );
    await provider.drain();
    await Promise.all(calls);
    expect(provider.requests).toEqual([['1'], ['2'], ['3', '4', '5', '6'], ['7', '8', '9', '10', '11', '12'], ['13']]);
    expect(provider.maxOpen).toBe(2);
  });

  it('retries a refused merged request per caller, so one bad text fails only its own job', async () => {
    void embedder.embed(['warm-up']);
    const good = embedder.embed(['fine']);
    const bad = embedder.embed(['poison pill']).catch((error: unknown) => error);
    const alsoGood = embedder.embed(['also fine']);
    await provider.drain();
    expect((await good).map((v) => [...v])).toEqual([vectorOf('fine')]);
    expect((await alsoGood).map((v) => [...v])).toEqual([vectorOf('also fine')]);
    expect(await bad).toMatchObject({ kind: 'bad_request' });
    expect(provider.requests.slice(1)).toEqual([
      ['fine', 'poison pill', 'also fine'],
      ['fine'],
      ['poison pill'],
      ['also fine'],
    ]);
  });

  it('fails every caller of a request at once when the provider itself is down, without retrying each', async () => {
    void embedder.embed(['warm-up']).catch(() => undefined);
    const callers = ['x', 'y', 'z'].map((text) => embedder.embed([text]).catch((error: unknown) => error));
    provider.failWith = new ProviderError('unavailable', 'Ollama is unreachable', undefined, 5_000);
    await provider.drain();
    for (const caller of callers) expect(await caller).toMatchObject({ kind: 'unavailable' });
    expect(provider.requests).toEqual([['warm-up'], ['x', 'y', 'z']]);
  });

  it('answers an empty request without a provider call', async () => {
    expect(await embedder.embed([])).toEqual([]);
    expect(provider.requests).toEqual([]);
  });
});
