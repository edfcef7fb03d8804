import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MODELS_DIR } from '@cairn/testing';
import reference from '../../../test/fixtures/all-minilm-l6-v2.reference.json';
import { LocalEmbedder, LocalModelUnavailableError } from './local-embedder';
import { existsSync } from 'node:fs';
import { BGE_SMALL_MODEL, LOCAL_MODEL } from './local-model';

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += a[i] * b[i];
  return dot;
};
const norm = (a: ArrayLike<number>) => Math.sqrt(cosine(a, a));

/**
 * The int8 model the `local` provider runs gives the vectors of the full-precision
 * all-MiniLM-L6-v2 (computed by scripts/models/reference-vectors.py with numpy from the
 * original weights): pooling, normalisation and the 256-token window are as trained.
 */
describe('the local embedding model', () => {
  let embedder: LocalEmbedder;
  beforeAll(async () => {
    embedder = await LocalEmbedder.load({ modelsDir: TEST_MODELS_DIR, threads: 1, batchSize: 4 });
  });
  afterAll(() => embedder?.release());

  it('is tracked as a model of its own, 384 dimensions, not built in', () => {
    expect(embedder.model).toEqual({
      id: 'local-all-minilm-l6-v2-384',
      provider: 'local',
      dimensions: 384,
      builtIn: false,
    });
  });

  it.each(reference.sentences.map((item) => [item.text.slice(0, 40), item] as const))(
    'matches the full-precision reference for "%s…" (cosine ≥ 0.99)',
    async (_, item) => {
      expect(embedder.tokenize(item.text)).toHaveLength(item.tokens);
      const [vector] = await embedder.embed([item.text]);
      expect(vector).toHaveLength(384);
      expect(norm(vector)).toBeCloseTo(1, 5);
      expect(cosine(vector, item.vector)).toBeGreaterThanOrEqual(0.99);
    },
  );

  it('gives the same vectors in a padded batch as one by one', async () => {
    const texts = reference.sentences.map((item) => item.text);
    const together = await embedder.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [alone] = await embedder.embed([text]);
      expect(cosine(together[i], alone)).toBeGreaterThan(0.9999);
    }
  });

  it('reads at most 256 word pieces (the trained window), keeping the closing [SEP]', () => {
    const ids = embedder.tokenize('deployment '.repeat(1_000));
    expect(ids).toHaveLength(LOCAL_MODEL.maxTokens);
    expect(ids[0]).toBe(101);
    expect(ids[ids.length - 1]).toBe(102);
  });

  it('places a question nearer the fact that answers it than an unrelated one', async () => {
    const [question, answer, other] = await embedder.embed([
      'Which web framework does the service use?',
      'The API uses Fastify, not Express.',
      'Alice prefers tabs over spaces in Go files.',
    ]);
    expect(cosine(question, answer)).toBeGreaterThan(cosine(question, other) + 0.2);
  });
});

/**
 * bge-small-en-v1.5 (int8, from LangChain4j's jar on Maven Central): the [CLS] vector, a window
 * of 512 word pieces, and BAAI's retrieval instruction before queries only. The test set-up
 * fetches it where Maven Central is reachable (the CI machine's registries may not include it:
 * then these are reported as skipped, and the set-up's log says why).
 */
const bgeFetched = existsSync(join(TEST_MODELS_DIR, BGE_SMALL_MODEL.folder, 'model.onnx'));
(bgeFetched ? describe : describe.skip)('the bge-small-en-v1.5 local model', () => {
  let embedder: LocalEmbedder;
  beforeAll(async () => {
    embedder = await LocalEmbedder.load({
      modelsDir: TEST_MODELS_DIR,
      model: 'bge-small-en-v1.5',
      threads: 1,
      batchSize: 4,
    });
  });
  afterAll(() => embedder?.release());

  it('is tracked as a model of its own (a switch re-embeds), 384 dimensions, with its measured fusion weight', () => {
    expect(embedder.model).toEqual({
      id: 'local-bge-small-en-v1.5-384',
      provider: 'local',
      dimensions: 384,
      builtIn: false,
      keywordWeight: 0.8,
    });
  });

  it('reads at most 512 word pieces, keeping the closing [SEP]', () => {
    const ids = embedder.tokenize('deployment '.repeat(1_000));
    expect(ids).toHaveLength(512);
    expect(ids[0]).toBe(101);
    expect(ids[ids.length - 1]).toBe(102);
  });

  it('embeds a query with the retrieval instruction, and stored texts without it', async () => {
    const query = 'Which web framework does the service use?';
    const [asText, withPrefix] = await embedder.embed([
      query,
      `Represent this sentence for searching relevant passages: ${query}`,
    ]);
    const asQuery = await embedder.embedQuery(query);
    expect(norm(asQuery)).toBeCloseTo(1, 5);
    expect(cosine(asQuery, withPrefix)).toBeGreaterThan(0.9999);
    expect(cosine(asQuery, asText)).toBeLessThan(0.9999);
  });

  it('places a question nearer the fact that answers it than an unrelated one', async () => {
    const question = await embedder.embedQuery('Which web framework does the service use?');
    const [answer, other] = await embedder.embed([
      'The API uses Fastify, not Express.',
      'Alice prefers tabs over spaces in Go files.',
    ]);
    expect(cosine(question, answer)).toBeGreaterThan(cosine(question, other) + 0.05);
  });

  it('gives a text the same vector whatever it is embedded with (one text per inference)', async () => {
    const texts = reference.sentences.map((item) => item.text);
    const together = await embedder.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [alone] = await embedder.embed([text]);
      expect(cosine(together[i], alone)).toBeGreaterThan(0.9999);
    }
  });
});

describe('loading the local model', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cairn-models-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('refuses a models directory without the files, naming the command that fetches them', async () => {
    await expect(LocalEmbedder.load({ modelsDir: dir, threads: 1, batchSize: 1 })).rejects.toThrow(
      new LocalModelUnavailableError(
        `${join(dir, LOCAL_MODEL.folder, 'model.onnx')} is missing: run \`npm run models\` to fetch the local model`,
      ),
    );
  });

  it('refuses a file that is not the pinned one', async () => {
    const folder = join(dir, LOCAL_MODEL.folder);
    await mkdir(folder);
    for (const file of LOCAL_MODEL.files)
      await copyFile(join(TEST_MODELS_DIR, LOCAL_MODEL.folder, file.name), join(folder, file.name));
    await writeFile(join(folder, 'tokenizer.json'), '{}');
    await expect(LocalEmbedder.load({ modelsDir: dir, threads: 1, batchSize: 1 })).rejects.toThrow(
      /tokenizer\.json is not the pinned file .*npm run models/,
    );
  });
});
