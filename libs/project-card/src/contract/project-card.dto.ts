import { slugSchema, stripControlCharacters, visibleTextSchema } from '@cairn/common';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import {
  CARD_LIMITS as L,
  CARD_VERSION_MAX,
  CARD_VERSIONS_MAX_LIMIT,
  PROJECT_CARD_SECTIONS,
} from './project-card.types';

/**
 * The project card's contract: one content schema for edits and for what the code index
 * derives, the card's view, and the REST and MCP inputs. Strict objects throughout: a misspelt
 * section is an error, not silently ignored.
 */

/**
 * One line of a list (control characters dropped, whitespace collapsed): each item renders as one
 * line. A required one must hold a visible character, which its published pattern states too.
 */
function line(max: number, required: boolean) {
  const text = required ? visibleTextSchema(max) : z.string().max(max, `must be at most ${max} characters`);
  return text.transform((value) => stripControlCharacters(value).replace(/\s+/g, ' ').trim());
}

function list<T extends z.ZodType>(item: T, max: number) {
  return z.array(item).max(max, `must have at most ${max} items`);
}

const pathReason = z.strictObject({
  path: line(L.pathChars, true).describe('Relative to the repository root'),
  why: line(L.whyChars, false),
});

/** A card's content: every section. Edits name some of them (`projectCardChangesSchema`). */
export const projectCardContentSchema = z.strictObject({
  stack: list(line(L.stackChars, true), L.stackItems).describe(
    'Languages, frameworks, stores: "TypeScript (612 files)", "NestJS", "PostgreSQL"',
  ),
  layout: list(
    z.strictObject({
      path: line(L.pathChars, true).describe('A directory worth knowing, relative to the root'),
      files: z.number().int().min(0).max(L.files),
      summary: line(L.whyChars, false).describe('What lives there'),
    }),
    L.layoutItems,
  ),
  entryPoints: list(pathReason, L.listItems).describe('Where execution starts (main files, handlers, CLIs)'),
  buildAndTest: list(
    z.strictObject({ command: line(L.commandChars, true), why: line(L.whyChars, false) }),
    L.listItems,
  ).describe('Commands to build, test, lint, run'),
  conventions: list(line(L.conventionChars, true), L.listItems).describe('Rules this code base follows'),
  hotFiles: list(pathReason, L.listItems).describe('Files changed often or central to most changes'),
  notes: z
    .string()
    .max(L.notesChars, `must be at most ${L.notesChars} characters`)
    .transform((value) => stripControlCharacters(value).replace(/\r\n?/g, '\n').trim())
    .describe('Free text: gotchas, state of work, anything the other sections do not hold'),
});

export const projectCardChangesSchema = projectCardContentSchema
  .partial()
  .refine((changes) => Object.keys(changes).length > 0, 'must name at least one section to change')
  // What the refinement checks, as JSON Schema states it (the OpenAPI document, the tool list).
  .meta({ minProperties: 1 })
  .describe(`The sections to replace, each whole: ${PROJECT_CARD_SECTIONS.join(', ')}`);

export const projectCardEditSchema = z.strictObject({
  changes: projectCardChangesSchema,
  expectedVersion: z
    .number()
    .int()
    .min(0)
    .max(CARD_VERSION_MAX)
    .optional()
    .describe('The version you read (0: no card yet); another version current refuses the edit (409)'),
  note: line(L.noteChars, false).optional().describe('Why, kept with the version'),
});
export class ProjectCardEditDto extends createZodDto(projectCardEditSchema) {}

const versionNumber = (n: z.ZodNumber) => n.int().min(1).max(CARD_VERSION_MAX, 'must be a card version');

export const projectCardInputSchema = z.strictObject({
  version: versionNumber(z.number()).optional().describe('A past version; default the current card'),
});

export const projectParamSchema = z.strictObject({ project: slugSchema });
export class ProjectParamDto extends createZodDto(projectParamSchema) {}

export const cardVersionParamsSchema = z.strictObject({
  project: slugSchema,
  version: versionNumber(z.coerce.number()),
});
export class CardVersionParamsDto extends createZodDto(cardVersionParamsSchema) {}

export const cardVersionsQuerySchema = z.strictObject({
  before: versionNumber(z.coerce.number()).optional().describe('Only versions older than this (nextBefore)'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(CARD_VERSIONS_MAX_LIMIT, `must be at most ${CARD_VERSIONS_MAX_LIMIT}`)
    .default(20),
});
export class CardVersionsQueryDto extends createZodDto(cardVersionsQuerySchema) {}

// Views: what is stored, as returned (no limits or normalisation to apply to an answer).
const pathReasonView = z.object({ path: z.string(), why: z.string() });
export const projectCardContentViewSchema = z.object({
  stack: z.array(z.string()),
  layout: z.array(z.object({ path: z.string(), files: z.number().int(), summary: z.string() })),
  entryPoints: z.array(pathReasonView),
  buildAndTest: z.array(z.object({ command: z.string(), why: z.string() })),
  conventions: z.array(z.string()),
  hotFiles: z.array(pathReasonView),
  notes: z.string(),
});

const versionFields = {
  version: z.number().int().describe('0: the project has no card yet'),
  edited: z
    .array(z.enum(PROJECT_CARD_SECTIONS))
    .describe('Sections last written by an edit, not derivation; derivation leaves them alone'),
  derivedFrom: z
    .object({ branch: z.string(), commit: z.string().nullable(), at: z.iso.datetime() })
    .nullable()
    .describe('The code index run the derived sections came from'),
  updatedAt: z.iso.datetime().nullable(),
  updatedBy: z
    .object({ userId: z.uuid().nullable(), agentId: z.string().nullable() })
    .nullable()
    .describe('Who wrote this version; null when derivation did'),
  note: z.string().nullable().describe("The edit's reason"),
};

export const projectCardViewSchema = z.object({
  project: z.string(),
  ...versionFields,
  content: projectCardContentViewSchema,
});
export class ProjectCardDto extends createZodDto(projectCardViewSchema) {}

export const projectCardVersionPageSchema = z.object({
  project: z.string(),
  items: z.array(z.object(versionFields)).describe('Newest first, without their content'),
  nextBefore: z.number().int().nullable().describe('`before` of the next page; null at version 1'),
});
export class ProjectCardVersionPageDto extends createZodDto(projectCardVersionPageSchema) {}
