import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { type CairnConfig } from '@cairn/config';
import { MetricsService } from '@cairn/observability';
import { type TenantContext, type TenantEntry, type TenantTransaction } from '@cairn/tenancy';
import { testConfig } from '@cairn/testing';
import { EmbeddingMetrics } from './embedding-metrics.service';
import { type Embedder, type EmbeddingModel } from './embedding-model';
import { EmbeddingProcessor } from './embedding.processor';
import {
  type ComputedEmbedding,
  type EmbeddingTargetHandler,
  EmbeddingTargets,
  type PendingEmbedding,
} from './embedding-targets.registry';
import { HashEmbedder } from './hash-embedder';
import { InlineEmbedding } from './inline-embedding.service';

/** Rows as the memories table keeps them: text, its hash, and the vector's hash (what `store` checks). */
class FakeRows implements EmbeddingTargetHandler {
  readonly table = 'fake_rows';
  readonly rows = new Map<string, { text: string; hash: string; embeddedHash: string | null }>();

  /** Commits `text` as row `id`'s content; returns what the writer hands to the inline embed. */
  write(id: string, text: string): PendingEmbedding {
    const hash = createHash('sha256').update(text).digest('hex');
    this.rows.set(id, { text, hash, embeddedHash: this.rows.get(id)?.embeddedHash ?? null });
    return { id, text, contentHash: hash };
  }

  pending(ids: readonly string[]) {
    return Promise.resolve(
      ids.flatMap((id) => {
        const row = this.rows.get(id);
        return row && row.embeddedHash !== row.hash ? [{ id, text: row.text, contentHash: row.hash }] : [];
      }),
    );
  }

  store(vectors: readonly ComputedEmbedding[]) {
    let stored = 0;
    for (const vector of vectors) {
      const row = this.rows.get(vector.id);
      // As the SQL does: only while the row still has the content the vector was computed for.
      if (row?.hash === vector.contentHash) {
        row.embeddedHash = vector.contentHash;
        stored += 1;
      }
    }
    return Promise.resolve(stored);
  }

  missing() {
    return Promise.resolve([]);
  }
}

/** The built-in embedder's vectors, each call held until `release` (or failing, when told to). */
class GatedEmbedder implements Embedder {
  readonly model: EmbeddingModel;
  readonly texts: string[] = [];
  private readonly inner = new HashEmbedder();
  private gates: (() => void)[] = [];
  failWith: Error | undefined;

  constructor(provider: EmbeddingModel['provider'] = 'hash') {
    this.model = { ...this.inner.model, provider };
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.texts.push(...texts);
    await new Promise<void>((resolve) => this.gates.push(resolve));
    if (this.failWith) throw this.failWith;
    return this.inner.embed(texts);
  }

  release(): void {
    for (const open of this.gates.splice(0)) open();
  }

  get waiting(): number {
    return this.gates.length;
  }
}

const tx = { run: <T>(work: () => Promise<T>) => work() } as unknown as TenantTransaction;
const tenant = { require: () => ({ id: 't', slug: 't', schema: 't_t' }) } as unknown as TenantContext;
const entry = { run: <T>(_tenant: unknown, work: () => T) => work() } as unknown as TenantEntry;
const tick = () => new Promise((resolve) => setImmediate(resolve));

function build(embedder: Embedder, env: Record<string, string> = {}) {
  const config: CairnConfig = testConfig('postgresql://unused/unused', 'redis://unused:6379', {
    EMBEDDING_INLINE_BUDGET_MS: '50',
    ...env,
  });
  const targets = new EmbeddingTargets();
  const rows = new FakeRows();
  targets.register('memory', rows);
  const metrics = new EmbeddingMetrics(new MetricsService());
  const inline = new InlineEmbedding(embedder, config, targets, tx, tenant, entry, metrics);
  const queue = new EmbeddingProcessor(embedder, config, targets, tx);
  const counted = async () =>
    Object.fromEntries((await metrics.inline.get()).values.map((v) => [String(v.labels.outcome), v.value]));
  return { inline, rows, queue, counted };
}

describe('InlineEmbedding', () => {
  // The failures below are the point; their warnings are not.
  beforeAll(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));

  it('embeds a short write within the budget, leaving its queued job nothing to do', async () => {
    const { inline, rows, queue, counted } = build(new HashEmbedder());
    const written = rows.write('a', 'The deploy runs from the release branch');
    expect(await inline.embed('memory', written)).toBe('done');
    expect(rows.rows.get('a')?.embeddedHash).toBe(rows.rows.get('a')?.hash);
    expect(await queue.process({ target: 'memory', ids: ['a'] })).toEqual({
      status: 'skipped',
      reason: 'nothing left to embed',
    });
    expect(await counted()).toEqual({ done: 1 });
  });

  it('answers at the budget on a slow model; the queued job then embeds the row', async () => {
    const slow = new GatedEmbedder();
    const { inline, rows, queue, counted } = build(slow);
    const written = rows.write('a', 'Slow models must not hold a write');
    const began = performance.now();
    expect(await inline.embed('memory', written)).toBe('over_budget');
    const waited = performance.now() - began;
    expect(waited).toBeGreaterThanOrEqual(45);
    expect(waited).toBeLessThan(1_000);
    expect(rows.rows.get('a')?.embeddedHash).toBeNull();
    // The late inline call fails; the queue's job (another model call) stores the vector.
    slow.failWith = new Error('model crashed');
    slow.release();
    await tick();
    slow.failWith = undefined;
    const job = queue.process({ target: 'memory', ids: ['a'] });
    await tick();
    slow.release();
    expect(await job).toEqual({ status: 'embedded', count: 1 });
    expect(rows.rows.get('a')?.embeddedHash).toBe(rows.rows.get('a')?.hash);
    expect(await counted()).toEqual({ over_budget: 1 });
  });

  it('never stores the older text when an edit lands while its vector is computed', async () => {
    const gated = new GatedEmbedder();
    const { inline, rows, queue } = build(gated, { EMBEDDING_INLINE_BUDGET_MS: '5000' });
    const first = inline.embed('memory', rows.write('a', 'The cache expires after one hour'));
    await tick();
    rows.write('a', 'The cache expires after ten minutes');
    gated.release();
    expect(await first).toBe('done');
    expect(rows.rows.get('a')?.embeddedHash).toBeNull();
    const job = queue.process({ target: 'memory', ids: ['a'] });
    await tick();
    expect(gated.texts.at(-1)).toBe('The cache expires after ten minutes');
    gated.release();
    expect(await job).toEqual({ status: 'embedded', count: 1 });
    expect(rows.rows.get('a')?.embeddedHash).toBe(rows.rows.get('a')?.hash);
  });

  it('leaves long texts, writes past the in-flight bound and failures to the queue, never throwing', async () => {
    const gated = new GatedEmbedder();
    const { inline, rows, counted } = build(gated, {
      EMBEDDING_INLINE_MAX_CHARS: '100',
      EMBEDDING_INLINE_MAX_IN_FLIGHT: '2',
      EMBEDDING_INLINE_BUDGET_MS: '5000',
    });
    const [a0, b0, c0, long] = ['a', 'b', 'c', 'long'].map((id) =>
      rows.write(id, id === 'long' ? 'x'.repeat(101) : `row ${id}`),
    );
    expect(await inline.embed('memory', long)).toBe('skipped_too_long');
    const a = inline.embed('memory', a0);
    const b = inline.embed('memory', b0);
    expect(await inline.embed('memory', c0)).toBe('skipped_busy');
    await tick();
    expect(gated.waiting).toBe(2);
    gated.failWith = new Error('out of memory');
    gated.release();
    expect(await Promise.all([a, b])).toEqual(['error', 'error']);
    expect(await counted()).toEqual({ skipped_too_long: 1, skipped_busy: 1, error: 2 });
    // The slots are free again once the calls ended.
    gated.failWith = undefined;
    const c = inline.embed('memory', c0);
    await tick();
    gated.release();
    expect(await c).toBe('done');
  });

  it('is off when disabled, and for a remote provider (its requests are batched by the worker)', async () => {
    const off = build(new HashEmbedder(), { EMBEDDING_INLINE: 'false' });
    expect(await off.inline.embed('memory', off.rows.write('a', 'anything'))).toBe('off');
    const remote = build(new GatedEmbedder('ollama'));

    expect(remote.inline.enabled).toBe(false);
    expect(await remote.inline.embed('memory', remote.rows.write('a', 'anything'))).toBe('off');
    expect(await off.counted()).toEqual({});
  });
});
