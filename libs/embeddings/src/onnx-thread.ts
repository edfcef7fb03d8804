import { Worker } from 'node:worker_threads';

/** One input of an inference: int64 values and their shape. */
export interface Int64Input {
  readonly data: BigInt64Array;
  readonly dims: readonly number[];
}

interface Answer {
  readonly id: number;
  readonly data?: Float32Array;
  readonly error?: string;
}

/**
 * The worker's code. onnxruntime-node runs an inference synchronously on the thread that calls
 * it (its `run` only defers the native call to `setImmediate`), ~12–15 ms for a short text on
 * this project's CPUs: on the main thread every embedding held the event loop, a write's inline
 * budget could not interrupt it and requests waited behind it. Here the session lives on a
 * thread of its own. The code is small and plain so the worker needs no TypeScript loader (it
 * runs the same under jest and from dist/); onnxruntime-node is required by the path the main
 * thread resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.runtime);
const ready = ort.InferenceSession.create(workerData.model, workerData.options);
ready.then(
  () => parentPort.postMessage({ id: 0 }),
  (error) => parentPort.postMessage({ id: 0, error: String(error && error.message || error) }),
);
parentPort.on('message', async ({ id, inputs, output }) => {
  try {
    const session = await ready;
    const feeds = {};
    for (const [name, input] of Object.entries(inputs)) feeds[name] = new ort.Tensor('int64', input.data, input.dims);
    const result = await session.run(feeds);
    const data = result[output].data;
    parentPort.postMessage({ id, data }, [data.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

export interface OnnxThreadOptions {
  /** Threads ONNX Runtime uses inside one inference (`EMBEDDING_THREADS`). */
  readonly threads: number;
}

/**
 * An ONNX model's inference session on a worker thread: `run` posts the inputs (their buffers
 * moved, not copied) and resolves with the named output's values. Inferences run one after
 * another on the thread, in the order asked. If the thread dies, every pending and later call
 * rejects, and the caller's fallback (the embedding queue, keyword search) takes over.
 */
export class OnnxThread {
  private readonly pending = new Map<
    number,
    { resolve: (data: Float32Array) => void; reject: (error: Error) => void }
  >();
  private nextId = 1;
  private failure: Error | undefined;

  private constructor(private readonly worker: Worker) {
    // An idle thread never keeps the process alive (an app's shutdown does not wait for it);
    // one with calls pending does, until they are answered (see `hold`).
    worker.unref();
    worker.on('message', (answer: Answer) => this.settle(answer));
    worker.on('error', (error: unknown) => this.fail(error instanceof Error ? error : new Error(String(error))));
    worker.on('exit', (code) => this.fail(new Error(`the inference thread exited (code ${code})`)));
  }

  /** Starts the thread and loads the model on it; rejects if the model does not load. */
  static async start(modelPath: string, options: OnnxThreadOptions): Promise<OnnxThread> {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        runtime: require.resolve('onnxruntime-node'),
        model: modelPath,
        options: {
          executionProviders: ['cpu'],
          intraOpNumThreads: options.threads,
          interOpNumThreads: 1,
          graphOptimizationLevel: 'all',
        },
      },
    });
    const thread = new OnnxThread(worker);
    try {
      await new Promise<void>((resolve, reject) => thread.hold(0, { resolve: () => resolve(), reject }));
    } catch (error) {
      await thread.release();
      throw error;
    }
    return thread;
  }

  /** The model's `output` for these int64 inputs (their buffers are moved to the thread). */
  run(inputs: Record<string, Int64Input>, output: string): Promise<Float32Array> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const transfer = Object.values(inputs).map((input) => input.data.buffer as ArrayBuffer);
    return new Promise<Float32Array>((resolve, reject) => {
      this.hold(id, { resolve, reject });
      this.worker.postMessage({ id, inputs, output }, transfer);
    });
  }

  async release(): Promise<void> {
    this.failure ??= new Error('the inference thread was released');
    await this.worker.terminate();
  }

  private hold(id: number, waiting: { resolve: (data: Float32Array) => void; reject: (error: Error) => void }): void {
    if (this.pending.size === 0) this.worker.ref();
    this.pending.set(id, waiting);
  }

  private settle(answer: Answer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker.unref();
    if (answer.error !== undefined) waiting.reject(new Error(answer.error));
    else waiting.resolve(answer.data ?? new Float32Array(0));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const { reject } of this.pending.values()) reject(this.failure);
    this.pending.clear();
    this.worker.unref();
  }
}
