import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MODELS_DIR } from '@cairn/testing';
import { LocalEmbedder } from './local-embedder';
import { LOCAL_MODEL } from './local-model';
import { OnnxThread } from './onnx-thread';

describe('the inference thread of the local model', () => {
  it('keeps the event loop serving while an inference runs', async () => {
    const embedder = await LocalEmbedder.load({ modelsDir: TEST_MODELS_DIR, threads: 1, batchSize: 8 });
    try {
      // Eight texts of the model's whole window: one inference of tens of milliseconds or more.
      const texts = Array.from({ length: 8 }, (_, i) => `${'the deploy runs migrations first '.repeat(60)} ${i}`);
      let ticks = 0;
      const timer = setInterval(() => (ticks += 1), 1);
      const vectors = await embedder.embed(texts);
      clearInterval(timer);
      expect(vectors).toHaveLength(8);
      // On the main thread the interval could not run during the (synchronous) inference.
      expect(ticks).toBeGreaterThanOrEqual(2);
    } finally {
      await embedder.release();
    }
  });

  it('refuses to start on a file that is not a model', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-onnx-'));
    try {
      await writeFile(join(dir, 'model.onnx'), 'not a model');
      await expect(OnnxThread.start(join(dir, 'model.onnx'), { threads: 1 })).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers every call in order, and refuses calls once released', async () => {
    const thread = await OnnxThread.start(join(TEST_MODELS_DIR, LOCAL_MODEL.folder, 'model.onnx'), { threads: 1 });
    const input = (id: number) => {
      const dims = [1, 3];
      return {
        input_ids: { data: BigInt64Array.from([101n, BigInt(id), 102n]), dims },
        attention_mask: { data: BigInt64Array.from([1n, 1n, 1n]), dims },
        token_type_ids: { data: new BigInt64Array(3), dims },
      };
    };
    const answers = await Promise.all([2000, 3000, 4000].map((id) => thread.run(input(id), 'last_hidden_state')));
    expect(answers.map((data) => data.length)).toEqual([3 * 384, 3 * 384, 3 * 384]);
    expect(answers[0]).not.toEqual(answers[1]);
    await thread.release();
    await expect(thread.run(input(2000), 'last_hidden_state')).rejects.toThrow(/released/);
  });
});
