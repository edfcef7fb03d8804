import { Logger } from '@nestjs/common';
import { type Generator, ProviderError } from '@cairn/providers';
import { z } from 'zod';
import { askModel, failRowOnFinalAttempt, isFinalAttempt } from './model-call';

const schema = z.object({ answer: z.string() });
const request = { system: 's', prompt: 'p', maxTokens: 10 };
const generator = (behaviour: () => Promise<string>): Generator => ({
  model: { provider: 'ollama', name: 'fake' },
  generate: behaviour,
});

describe('askModel', () => {
  // The fallbacks log warnings by design; keep the test output readable.
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

  it('parses a usable answer and names the model', async () => {
    const answer = await askModel(
      generator(() => Promise.resolve('Sure: {"answer":"42"}')),
      request,
      schema,
      false,
    );
    expect(answer).toEqual({ ok: true, value: { answer: '42' }, generatedBy: 'ollama:fake' });
  });

  it('falls back without a model, on a malformed answer and on permanent provider errors', async () => {
    expect(await askModel(null, request, schema, false)).toMatchObject({ ok: false });
    expect(
      await askModel(
        generator(() => Promise.resolve('{"answer": 1}')),
        request,
        schema,
        false,
      ),
    ).toMatchObject({
      ok: false,
      reason: 'malformed model answer',
    });
    for (const kind of ['bad_request', 'not_found', 'bad_response'] as const) {
      const failing = generator(() => Promise.reject(new ProviderError(kind, kind)));
      expect(await askModel(failing, request, schema, false)).toMatchObject({ ok: false });
    }
  });

  it('lets transient failures through to the job runner, except on the final attempt', async () => {
    const timeout = generator(() => Promise.reject(new ProviderError('timeout', 'slow')));
    await expect(askModel(timeout, request, schema, false)).rejects.toThrow('slow');
    expect(await askModel(timeout, request, schema, true)).toMatchObject({ ok: false, reason: 'model unavailable' });
    const unknown = generator(() => Promise.reject(new Error('socket hang up')));
    await expect(askModel(unknown, request, schema, false)).rejects.toThrow('socket hang up');
  });

  it('always propagates backpressure, which costs no attempt', async () => {
    const limited = generator(() => Promise.reject(new ProviderError('rate_limited', '429', 429, 1_000)));
    await expect(askModel(limited, request, schema, true)).rejects.toMatchObject({ backpressureMs: 1_000 });
  });

  it('knows the final attempt from BullMQ counts', () => {
    expect(isFinalAttempt(0, 3)).toBe(false);
    expect(isFinalAttempt(2, 3)).toBe(true);
    expect(isFinalAttempt(0, 1)).toBe(true);
  });

  it('records a failure on the row on the final attempt only, never for backpressure', async () => {
    const failed: string[] = [];
    const mark = (message: string) => Promise.resolve(void failed.push(message));
    const broken = () => Promise.reject(new Error('database went away'));
    await expect(failRowOnFinalAttempt(false, broken, mark)).rejects.toThrow('database went away');
    expect(failed).toEqual([]);
    expect(await failRowOnFinalAttempt(true, broken, mark)).toEqual({
      status: 'skipped',
      detail: 'failed on its final attempt',
    });
    expect(failed).toEqual(['processing failed on every attempt; send it again to retry']);
    const limited = () => Promise.reject(new ProviderError('rate_limited', '429', 429, 1_000));
    await expect(failRowOnFinalAttempt(true, limited, mark)).rejects.toThrow('429');
    const unmarkable = () => Promise.reject(new Error('still down'));
    await expect(failRowOnFinalAttempt(true, broken, unmarkable)).rejects.toThrow('database went away');
    expect(await failRowOnFinalAttempt(true, () => Promise.resolve({ status: 'done' as const }), mark)).toEqual({
      status: 'done',
    });
  });
});
