import { applyConfiguredLimits, type ConfiguredLimits, VISIBLE_TEXT } from '@cairn/common';
import { z } from 'zod';

/**
 * Tool definitions as an agent pays for them. Every MCP client puts the whole tool list into
 * the model's context at the start of every session, so the JSON Schemas in it say what a
 * caller needs and nothing a machine alone needs: validation stays on the server, where the
 * zod schemas still check every call and every answer.
 */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * What the tool list says of one schema where it should differ from what the schema itself
 * documents (its `.describe()` text also serves the REST API): listing-only, so neither
 * validation nor the OpenAPI document changes. Register with `toolListing.add(schema, meta)`
 * next to the tool that lists it.
 */
export interface ToolListingMeta {
  /** Replaces the schema's description in the tool list; `''` drops it. */
  readonly description?: string;
  /**
   * For a record an agent need not read field by field here: one another tool lists in full
   * (a memory, as memory_get returns it), a diagnostic, or an argument whose fields another
   * tool of the same toolset describes. Wherever it is nested (never at the root) the list
   * shows `{ type, description }` instead of its fields, the description being the
   * occurrence's own if it has one, else this summary. The server still validates it whole.
   */
  readonly summary?: string;
}

export const toolListing = z.registry<ToolListingMeta>();

/** Marks a rendered record that has a summary, until compaction decides where it is nested. */
const SUMMARY = 'x-cairn-summary';
/** Marks a length the configuration sets: listed whatever its size, since it is not the schema's own. */
const CONFIGURED = 'x-cairn-configured';

/**
 * How deep an output schema spells out records: the answer's fields and the fields of the
 * records in it. A record nested deeper is listed as an object with its description.
 */
const OUTPUT_DEPTH = 2;

/**
 * Keywords that describe what an answer looks like; everything else in an output schema is
 * validation detail (`format` too: the type and the field's name say what an agent needs).
 */
const OUTPUT_KEYWORDS = new Set([
  'type',
  'properties',
  'items',
  'prefixItems',
  'required',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'description',
  'title',
  'additionalProperties',
  'propertyNames',
  '$ref',
  '$defs',
]);

const LENGTHS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);

/**
 * A text limit this long stays in an input listing: an agent pasting a transcript, a file or
 * a long note can reach it, and knowing it beforehand saves a refused call (DESIGN §7: schemas
 * with limits). Shorter limits (names, tags, ids) only cost context.
 */
const LONG_TEXT_LIMIT = 10_000;

/** Keywords whose value is one subschema, or a map or list of them. */
const ONE_SCHEMA = ['items', 'additionalProperties', 'propertyNames', 'not', 'contains', 'if', 'then', 'else'];
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', '$ref', 'const', 'if'];

/**
 * Renders a tool's input or output schema for the tool list: zod's JSON Schema with the
 * configured length limits in place of the schema's ceilings (see CONFIGURED_MAX_LENGTH), compacted.
 */
export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output', limits: ConfiguredLimits): JsonSchema {
  const rendered = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => {
      // `get` inherits from the schema a `.describe()` copy was made of: a described memory is still a memory.
      const meta = toolListing.get(zodSchema);
      if (toolListing.has(zodSchema) && meta?.description !== undefined) jsonSchema.description = meta.description;
      if (meta?.summary) jsonSchema[SUMMARY] = meta.summary;
    },
  }) as JsonSchema;
  // MCP carries the schema inline; the meta-schema URI only costs the agent context.
  delete rendered.$schema;
  applyConfiguredLimits(rendered, limits, (node) => (node[CONFIGURED] = true));
  return compactSchema(rendered, io);
}

/**
 * Compacts a rendered JSON Schema. What it leaves out is still checked by the server (the
 * zod schema validates every call and every answer), so an input listing accepts at least
 * what the server accepts and an output listing is true of every answer.
 *  - Both: no `pattern` where a `format` says the same (zod emits a regular expression of a
 *    few hundred characters for every uuid and date-time); `anyOf: [X, {type: null}]` becomes
 *    X with a nullable `type`; a `propertyNames` that only says "string" (JSON keys are) and an
 *    `additionalProperties` that allows anything (the default) are dropped; a nested record
 *    with a summary is listed as `{ type, description }`.
 *  - Input: no string or array lengths (the server's message names the limit) except the
 *    maximum length of long texts ({@link LONG_TEXT_LIMIT} characters or more) and a maximum the
 *    configuration sets (memory content), and no default of false, '', [] or {} (what an
 *    omitted optional argument means anyway); types, enums, required, other defaults,
 *    numeric ranges, other patterns and strictness (`additionalProperties: false`) stay.
 *  - Output: only the keywords of {@link OUTPUT_KEYWORDS} (no lengths, bounds, patterns,
 *    formats, `additionalProperties: false`, defaults), and records {@link OUTPUT_DEPTH} deep: a record
 *    nested deeper is listed as `{ type, description }`.
 */
export function compactSchema(schema: JsonSchema, io: 'input' | 'output'): JsonSchema {
  return compact(schema, io, 0);
}

/** `depth`: how many records enclose this schema (the root's fields are at depth 1). */
function compact(node: JsonSchema, io: 'input' | 'output', depth: number): JsonSchema {
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === SUMMARY || keyword === CONFIGURED) continue;
    if (io === 'output' && !OUTPUT_KEYWORDS.has(keyword)) continue;
    if (keyword === 'pattern' && typeof node.format === 'string') continue;
    // "Not blank" (the non-blank text pattern): the server's message says it if it is ever broken.
    if (io === 'input' && keyword === 'pattern' && value === VISIBLE_TEXT.source) continue;
    const configured = keyword === 'maxLength' && node[CONFIGURED] === true;
    if (io === 'input' && LENGTHS.has(keyword) && !isLongTextLimit(keyword, value) && !configured) continue;
    if (keyword === 'default' && isEmpty(value)) continue;
    if (keyword === 'description' && value === '') continue;
    if (keyword === 'propertyNames' && isTrivialString(value)) continue;
    if (keyword === 'additionalProperties' && isAnything(value)) continue;
    if (keyword === 'additionalProperties' && io === 'output' && typeof value === 'boolean') continue;
    out[keyword] = subschemas(keyword, value, io, keyword === 'properties' ? depth + 1 : depth);
  }
  const compacted = nullableType(out);
  const summary = node[SUMMARY];
  const tooDeep = io === 'output' && depth >= OUTPUT_DEPTH && isSchema(compacted.properties);
  if (depth === 0 || (typeof summary !== 'string' && !tooDeep)) return compacted;
  // Named, not spelled out. A description of this occurrence ("The memory at the other end") says more than the summary.
  const description = typeof compacted.description === 'string' ? compacted.description : summary;
  return {
    ...(compacted.type !== undefined && { type: compacted.type }),
    ...(typeof description === 'string' && { description }),
  };
}

function subschemas(keyword: string, value: unknown, io: 'input' | 'output', depth: number): unknown {
  if (ONE_SCHEMA.includes(keyword) && isSchema(value)) return compact(value, io, depth);
  if (SCHEMA_LIST.includes(keyword) && Array.isArray(value))
    return value.map((item: unknown) => (isSchema(item) ? compact(item, io, depth) : item));
  if (SCHEMA_MAP.includes(keyword) && isSchema(value))
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, isSchema(item) ? compact(item, io, depth) : item]),
    );
  return value;
}

/**
 * `{anyOf: [X, {type: "null"}]}` → X with `type: [X.type, "null"]`: the same values, since
 * every keyword of X other than `type` (and `enum`, which gains null) only constrains
 * values of X's type. Left alone when X could also constrain null (combinators, `$ref`, `const`).
 */
function nullableType(node: JsonSchema): JsonSchema {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return node;
  const nullIndex = branches.findIndex((branch) => isSchema(branch) && isOnly(branch, { type: 'null' }));
  if (nullIndex < 0) return node;
  const other: unknown = branches[1 - nullIndex];
  if (!isSchema(other) || typeof other.type !== 'string' || COMBINATORS.some((keyword) => keyword in other)) {
    return node;
  }
  const { anyOf: _anyOf, ...rest } = node;
  const merged: JsonSchema = { ...other, ...rest, type: [other.type, 'null'] };
  const values: unknown = other.enum;
  if (Array.isArray(values)) merged.enum = values.includes(null) ? values : [...(values as unknown[]), null];
  return merged;
}

function isLongTextLimit(keyword: string, value: unknown): boolean {
  return keyword === 'maxLength' && typeof value === 'number' && value >= LONG_TEXT_LIMIT;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOnly(schema: JsonSchema, expected: JsonSchema): boolean {
  const keys = Object.keys(schema);
  return keys.length === Object.keys(expected).length && keys.every((key) => schema[key] === expected[key]);
}

/** false, '', [] or {}: what an agent assumes of an optional argument it leaves out. */
function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (isSchema(value)) return Object.keys(value).length === 0;
  return value === false || value === '';
}

/** `{}` or `true`: what JSON Schema assumes when the keyword is absent. */
function isAnything(value: unknown): boolean {
  return value === true || (isSchema(value) && Object.keys(value).length === 0);
}

function isTrivialString(value: unknown): boolean {
  return isSchema(value) && isOnly(value, { type: 'string' });
}
