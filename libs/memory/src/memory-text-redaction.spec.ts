import { type SecretRedaction } from '@cairn/secrets';
import { redactMemoryTexts } from './memory-text-redaction';

/** SecretRedaction's field contract, with "sk-live-<n>" standing for whatever its rules find. */
const redaction = {
  redactFields: (fields: Record<string, string | readonly string[] | undefined>) => {
    const clean = (text: string) => text.replace(/sk-live-\d/g, '[SECRET:x]');
    const out = Object.fromEntries(
      Object.entries(fields).map(([name, value]) => [
        name,
        value === undefined ? undefined : typeof value === 'string' ? clean(value) : value.map(clean),
      ]),
    );
    return Promise.resolve({ fields: out, redacted: [], sealed: [] });
  },
} as unknown as SecretRedaction;

describe('redactMemoryTexts', () => {
  it('redacts content, tags, keywords, the source path and hash and the reason, keeping the other fields', async () => {
    const { fields } = await redactMemoryTexts(redaction, {
      content: 'token sk-live-1 in use',
      tags: ['ops', 'sk-live-2'],
      keywords: ['billing'],
      source: { path: 'postgres://app:sk-live-3@db/x', line: 4, contentHash: 'sk-live-4' },
      reason: 'rotated sk-live-5',
      importance: 3,
    });
    expect(fields).toEqual({
      content: 'token [SECRET:x] in use',
      tags: ['ops', '[SECRET:x]'],
      keywords: ['billing'],
      source: { path: 'postgres://app:[SECRET:x]@db/x', line: 4, contentHash: '[SECRET:x]' },
      reason: 'rotated [SECRET:x]',
      importance: 3,
    });
  });

  it('of an update keeps only what it names, and a content sealed whole becomes its placeholder', async () => {
    const { fields } = await redactMemoryTexts(redaction, { tags: ['sk-live-1'] });
    expect(fields).toEqual({ tags: ['[SECRET:x]'] });
    const sealed = await redactMemoryTexts(
      redaction,
      { reason: 'now sensitive' },
      { placeholder: '[SECRET:sensitive:y]' },
    );
    expect(sealed.fields).toEqual({ reason: 'now sensitive', content: '[SECRET:sensitive:y]' });
  });
});
