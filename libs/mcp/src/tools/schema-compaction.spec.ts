import { z } from 'zod';
import { compactSchema, toolJsonSchema, toolListing } from './schema-compaction';

const memory = z.object({
  id: z.uuid(),
  content: z.string().min(1).max(100),
  category: z.enum(['fact', 'decision']),
  tags: z.array(z.string().max(64)).max(32),
  createdAt: z.iso.datetime(),
  verifiedAt: z.iso.datetime().nullable(),
  source: z.object({ path: z.string(), line: z.number().int().min(1).nullable() }).nullable(),
});
const text = (schema: unknown) => JSON.stringify(schema);

describe('tool schema compaction', () => {
  describe('input', () => {
    const input = z.strictObject({
      id: z.uuid().describe('Memory id'),
      after: z.iso.datetime({ offset: true }).optional(),
      email: z.email().optional(),
      slug: z.string().regex(/^[a-z][a-z0-9-]{2,39}$/),
      limit: z.number().int().min(1).max(50).default(10),
      mode: z.enum(['hybrid', 'keyword']).default('hybrid'),
      note: z.string().max(500).nullable().optional(),
      filters: z.strictObject({ tags: z.array(z.string().min(1).max(64)).max(32).optional() }).optional(),
    });
    const listed = toolJsonSchema(input, 'input');

    it('drops the regular expressions a format already says, and only those', () => {
      expect(listed.properties).toMatchObject({
        id: { type: 'string', format: 'uuid', description: 'Memory id' },
        after: { type: 'string', format: 'date-time' },
        email: { type: 'string', format: 'email' },
        slug: { type: 'string', pattern: '^[a-z][a-z0-9-]{2,39}$' },
      });
      const properties = listed.properties as Record<string, Record<string, unknown>>;
      for (const name of ['id', 'after', 'email']) expect(properties[name]).not.toHaveProperty('pattern');
      // zod's own rendering carries them: several hundred characters for a date-time.
      expect(text(z.toJSONSchema(input, { io: 'input' })).length - text(listed).length).toBeGreaterThan(600);
    });

    it('keeps the shape, required, enums, defaults, limits and strictness', () => {
      expect(listed).toMatchObject({
        type: 'object',
        required: ['id', 'slug'],
        additionalProperties: false,
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
          mode: { type: 'string', enum: ['hybrid', 'keyword'], default: 'hybrid' },
          note: { type: ['string', 'null'], maxLength: 500 },
          filters: {
            type: 'object',
            additionalProperties: false,
            properties: {
              tags: { type: 'array', maxItems: 32, items: { type: 'string', minLength: 1, maxLength: 64 } },
            },
          },
        },
      });
    });
  });

  describe('output', () => {
    const listed = toolJsonSchema(memory, 'output');

    it('describes the shape: types, properties, required, enums, formats', () => {
      expect(listed).toEqual({
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          content: { type: 'string' },
          category: { type: 'string', enum: ['fact', 'decision'] },
          tags: { type: 'array', items: { type: 'string' } },
          createdAt: { type: 'string', format: 'date-time' },
          verifiedAt: { type: ['string', 'null'], format: 'date-time' },
          source: {
            type: ['object', 'null'],
            properties: { path: { type: 'string' }, line: { type: ['integer', 'null'] } },
            required: ['path', 'line'],
          },
        },
        required: ['id', 'content', 'category', 'tags', 'createdAt', 'verifiedAt', 'source'],
      });
    });

    it('is still true of every answer the zod schema accepts', () => {
      const answer = {
        id: '0b7e4c2a-5d1f-4e8a-9c3b-2f6d8e1a4b5c',
        content: 'x',
        category: 'fact',
        tags: [],
        createdAt: '2026-01-01T00:00:00.000Z',
        verifiedAt: null,
        source: { path: 'a.ts', line: null },
      };
      expect(memory.parse(answer)).toEqual(answer);
      // The schema keeps no keyword that could refuse a value zod accepts.
      const keywords = new Set<string>();
      JSON.stringify(listed, (key: string, value: unknown) => (keywords.add(key), value));
      for (const keyword of ['pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'maxItems']) {
        expect(keywords).not.toContain(keyword);
      }
      expect(listed).not.toHaveProperty('additionalProperties');
    });

    it('summarises a record another tool returns in full where it is nested, never at the root', () => {
      const registered = memory.extend({});
      toolListing.add(registered, { summary: 'A memory, as memory_get returns it' });
      const page = z.object({
        items: z.array(registered),
        other: registered.describe('The memory at the other end').nullable(),
      });
      expect(toolJsonSchema(page, 'output')).toEqual({
        type: 'object',
        properties: {
          items: { type: 'array', items: { type: 'object', description: 'A memory, as memory_get returns it' } },
          other: {
            type: ['object', 'null'],
            description: 'The memory at the other end',
          },
        },
        required: ['items', 'other'],
      });
      expect(toolJsonSchema(registered, 'output')).toMatchObject({ type: 'object', required: expect.any(Array) });
      expect(text(toolJsonSchema(registered, 'output'))).not.toContain('x-cairn');
    });
  });

  it('replaces or drops a description in the listing only', () => {
    const query = z.string().max(4000).describe('A natural-language question or keywords, no operator syntax');
    const quiet = z.boolean().describe('Something obvious');
    toolListing.add(query, { description: 'Question or keywords' });
    toolListing.add(quiet, { description: '' });
    const input = z.strictObject({ query, quiet });
    expect(toolJsonSchema(input, 'input').properties).toEqual({
      query: { type: 'string', maxLength: 4000, description: 'Question or keywords' },
      quiet: { type: 'boolean' },
    });
    expect(z.toJSONSchema(input).properties).toMatchObject({
      query: { description: 'A natural-language question or keywords, no operator syntax' },
      quiet: { description: 'Something obvious' },
    });
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
    expect(toolJsonSchema(record, 'output').properties).toEqual({
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
