import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MODELS_DIR } from '@cairn/testing';
import { chooseEmbedder } from './embedder-choice';

describe('npm start choosing its embedder', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cairn-start-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('runs the local model when its files are there', async () => {
    const choice = await chooseEmbedder({ EMBEDDING_MODELS_DIR: TEST_MODELS_DIR }, root);
    expect(choice.env).toEqual({ EMBEDDING_PROVIDER: 'local', EMBEDDING_MODELS_DIR: TEST_MODELS_DIR });
    expect(choice.message).toContain('local all-MiniLM-L6-v2');
  });

  it('runs bge-small-en-v1.5 when EMBEDDING_MODEL names it', async () => {
    const choice = await chooseEmbedder(
      { EMBEDDING_MODELS_DIR: TEST_MODELS_DIR, EMBEDDING_MODEL: 'bge-small-en-v1.5' },
      root,
    );
    expect(choice.env).toEqual({ EMBEDDING_PROVIDER: 'local', EMBEDDING_MODELS_DIR: TEST_MODELS_DIR });
    expect(choice.message).toContain('local bge-small-en-v1.5');
  });

  it('falls back to the hash embedder, saying why and what to run, when the model cannot be fetched', async () => {
    const choice = await chooseEmbedder({}, root, { indexUrl: 'http://127.0.0.1:9/simple' });
    expect(choice.env).toEqual({ EMBEDDING_PROVIDER: 'hash' });
    expect(choice.message).toMatch(/could not be fetched .*built-in hash embedder .*npm run models/);
  });

  it('leaves a provider the operator chose alone', async () => {
    const choice = await chooseEmbedder({ EMBEDDING_PROVIDER: 'ollama' }, root);
    expect(choice.env).toEqual({});
  });
});
