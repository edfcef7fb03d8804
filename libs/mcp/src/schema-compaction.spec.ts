import { withConfiguredMaxLength } from '@cairn/common';
import { z } from 'zod';
import { compactSchema, type JsonSchema, toolJsonSchema, toolListing } from './schema-compaction';

const LIMITS = { memoryContentMaxChars: 8_000, kbDocumentMaxChars: 500_000 };

const text = (schema: unknown) => JSON.stringify(schema);

/** Every keyword used anywhere in a schema. */
function keywordsOf(schema: JsonSchema): Set<string> {
  const keywords = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties') Object.values(value as object).forEach(walk);
      else {
        keywords.add(key);
        walk(value);
      }
    }
  };
  walk(schema);
  return keywords;
}

describe('tool schema compaction', () => {
  it('lists a configured limit as the configured maxLength, however short, and never the marker', () => {
    const input = z.strictObject({
      content: withConfiguredMaxLength(z.string().max(100_000), 'memoryContentMaxChars').describe('The fact'),
      text: withConfiguredMaxLength(z.string().max(5_000_000), 'kbDocumentMaxChars'),
    });
    const listed = toolJsonSchema(input, 'input', { memoryContentMaxChars: 900, kbDocumentMaxChars: 20_000 });
    expect(listed.properties).toEqual({
      content: { type: 'string', maxLength: 900, description: 'The fact' },
      text: { type: 'string', maxLength: 20_000 },
    });
    expect(text(toolJsonSchema(input, 'output', LIMITS))).not.toContain('x-cairn');
  });

  describe('input', () => {
    const input = z.strictObject({
      id: z.uuid().describe('Memory id'),
      after: z.iso.datetime({ offset: true }).optional(),
      email: z.email().optional(),
      key: z.string().regex(/^[A-Za-z0-9._:/-]{1,128}$/),
      content: z.string().min(1).max(100_000),
      limit: z.number().int().min(1).max(50).default(10),
      mode: z.enum(['hybrid', 'keyword']).default('hybrid'),
      explain: z.boolean().default(false),
      note: z.string().max(500).nullable().optional(),
      filters: z
        .strictObject({
          tags: z.array(z.string().min(1).max(64)).max(32).optional(),
          stale: z.boolean().optional().describe('true: only stale'),
        })
        .default({}),
    });
    const listed = toolJsonSchema(input, 'input', LIMITS);

    it('drops the regular expressions a format already says, and only those', () => {
      expect(listed.properties).toMatchObject({
        id: { type: 'string', format: 'uuid', description: 'Memory id' },
        after: { type: 'string', format: 'date-time' },
        email: { type: 'string', format: 'email' },
        key: { type: 'string', pattern: '^[A-Za-z0-9._:/-]{1,128}$' },
      });
      const properties = listed.properties as Record<string, JsonSchema>;
      for (const name of ['id', 'after', 'email']) expect(properties[name]).not.toHaveProperty('pattern');
      // zod's own rendering carries them: several hundred characters for a date-time.
      expect(text(z.toJSONSchema(input, { io: 'input' })).length - text(listed).length).toBeGreaterThan(600);
    });

    it('keeps the shape: types, required, enums, defaults, numeric ranges, descriptions, strictness', () => {
      expect(listed).toMatchObject({
        type: 'object',
        required: ['id', 'key', 'content'],
        additionalProperties: false,
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
          mode: { type: 'string', enum: ['hybrid', 'keyword'], default: 'hybrid' },
          note: { type: ['string', 'null'] },
          filters: {
            type: 'object',
            additionalProperties: false,
            properties: {
              tags: { type: 'array', items: { type: 'string' } },
              stale: { description: 'true: only stale' },
            },
          },
        },
      });
    });

    it('leaves short string and array lengths and empty defaults to the server, and lists a long text limit', () => {
      const properties = listed.properties as Record<string, JsonSchema>;
      // An agent can reach 100,000 characters with a pasted file: that limit is worth its context.
      expect(properties.content).toEqual({ type: 'string', maxLength: 100_000 });
      const keywords = keywordsOf({ ...listed, properties: { ...properties, content: {} } });
      for (const keyword of ['minLength', 'maxLength', 'minItems', 'maxItems']) expect(keywords).not.toContain(keyword);
      expect(properties.explain).toEqual({ type: 'boolean' });
      expect(properties.filters).not.toHaveProperty('default');
      // The server still refuses what the listing no longer spells out.
      expect(input.safeParse({ id: '0b7e4c2a-5d1f-4e8a-9c3b-2f6d8e1a4b5c', key: 'k', content: '' }).success).toBe(
        false,
      );
      expect(input.safeParse({ id: 'not-a-uuid', key: 'k', content: 'x' }).success).toBe(false);
      expect(input.safeParse({ id: '0b7e4c2a-5d1f-4e8a-9c3b-2f6d8e1a4b5c', key: 'k', content: 'x' }).success).toBe(
        true,
      );
    });
  });

  describe('output', () => {
    const memory = z.object({
      id: z.uuid(),
      content: z.string().min(1).max(100),
      category: z.enum(['fact', 'decision']),
      tags: z.array(z.string().max(64)).max(32),
      createdAt: z.iso.datetime(),
      verifiedAt: z.iso.datetime().nullable(),
      source: z
        .object({
          path: z.string(),
          line: z.number().int().min(1).nullable(),
          origin: z.object({ repository: z.string() }).describe('Where the file lives'),
        })
        .nullable(),
    });
    const listed = toolJsonSchema(memory, 'output', LIMITS);

    it('describes the shape: types, properties, required, enums, descriptions; records two levels deep', () => {
      expect(listed).toEqual({
        type: 'object',
        properties: {
          id: { type: 'string' },
          content: { type: 'string' },
          category: { type: 'string', enum: ['fact', 'decision'] },
          tags: { type: 'array', items: { type: 'string' } },
          createdAt: { type: 'string' },
          verifiedAt: { type: ['string', 'null'] },
          source: {
            type: ['object', 'null'],
            properties: {
              path: { type: 'string' },
              line: { type: ['integer', 'null'] },
              // Three levels down: named by its description, not spelled out.
              origin: { type: 'object', description: 'Where the file lives' },
            },
            required: ['path', 'line', 'origin'],
          },
        },
        required: ['id', 'content', 'category', 'tags', 'createdAt', 'verifiedAt', 'source'],
      });
    });

    it('is still true of every answer the zod schema accepts: no keyword that could refuse one', () => {
      const keywords = keywordsOf(listed);
      for (const keyword of [
        'pattern',
        'format',
        'minLength',
        'maxLength',
        'minimum',
        'maxItems',
        'additionalProperties',
      ]) {
        expect(keywords).not.toContain(keyword);
      }
    });

    it('summarises a registered record where it is nested, never at the root', () => {
      const registered = memory.extend({});
      toolListing.add(registered, { summary: 'A memory, as memory_get returns it' });
      const page = z.object({
        items: z.array(registered),
        other: registered.describe('The memory at the other end').nullable(),
      });
      expect(toolJsonSchema(page, 'output', LIMITS)).toEqual({
        type: 'object',
        properties: {
          items: { type: 'array', items: { type: 'object', description: 'A memory, as memory_get returns it' } },
          other: { type: ['object', 'null'], description: 'The memory at the other end' },
        },
        required: ['items', 'other'],
      });
      expect(toolJsonSchema(registered, 'output', LIMITS)).toMatchObject({
        type: 'object',
        required: expect.any(Array),
      });
      expect(text(toolJsonSchema(registered, 'output', LIMITS))).not.toContain('x-cairn');
    });
  });

  it('replaces or drops a description and summarises an argument in the listing only', () => {
    const query = z.string().max(4000).describe('A natural-language question or keywords, no operator syntax');
    const quiet = z.boolean().describe('Something obvious');
    const filters = z.strictObject({ tags: z.array(z.string()).optional() }).optional();
    toolListing.add(query, { description: 'Question or keywords' });
    toolListing.add(quiet, { description: '' });
    toolListing.add(filters, { summary: 'The same filters as memory_recall' });
    const input = z.strictObject({ query, quiet, filters });
    expect(toolJsonSchema(input, 'input', LIMITS).properties).toEqual({
      query: { type: 'string', description: 'Question or keywords' },
      quiet: { type: 'boolean' },
      filters: { type: 'object', description: 'The same filters as memory_recall' },
    });
    expect(z.toJSONSchema(input).properties).toMatchObject({
      query: { description: 'A natural-language question or keywords, no operator syntax' },
      quiet: { description: 'Something obvious' },
      filters: { properties: { tags: { type: 'array' } } },
    });
    expect(input.safeParse({ query: 'q', quiet: true, filters: { tags: ['a'], nope: 1 } }).success).toBe(false);
  });

  it('keeps an enum nullable when it folds anyOf [X, null], and leaves combinators alone', () => {
    expect(compactSchema({ anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] }, 'input')).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    });
    const union = { anyOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { type: 'null' }] };
    expect(compactSchema(union, 'input')).toEqual(union);
    const constant = { anyOf: [{ type: 'string', const: '*' }, { type: 'null' }] };
    expect(compactSchema(constant, 'output')).toEqual(constant);
  });

  it('drops a propertyNames that only says "string" and an additionalProperties that allows anything', () => {
    const record = z.object({
      any: z.record(z.string(), z.number()),
      loose: z.record(z.string(), z.unknown()),
      some: z.partialRecord(z.enum(['a', 'b']), z.number()),
    });
    expect(toolJsonSchema(record, 'output', LIMITS).properties).toEqual({
      any: { type: 'object', additionalProperties: { type: 'number' } },
      loose: { type: 'object' },
      some: {
        type: 'object',
        propertyNames: { type: 'string', enum: ['a', 'b'] },
        additionalProperties: { type: 'number' },
      },
    });
  });
});
