import { createZodDto } from 'nestjs-zod';
import { MEMORY_SCOPES } from '@cairn/memory';
import { z } from 'zod';
import { BRIEFING_SECTIONS } from './briefing.types';
import { contextOptionsSchema } from './working-memory.fields';

/** REST's briefing request: the recall_context options, and which text rendering to return. */
export const briefingRequestSchema = contextOptionsSchema.extend({
  format: z
    .enum(['markdown', 'compact'])
    .default('markdown')
    .describe(
      'The `text` rendering: markdown (sections with headings and timestamps), or compact (what ' +
        "recall_context shows an agent: ages instead of timestamps, one line per item; what Claude Code's " +
        'SessionStart hook injects)',
    ),
});
export class BriefingRequestDto extends createZodDto(briefingRequestSchema) {}

const itemSchema = z.object({
  key: z.string(),
  value: z.string(),
  importance: z.number(),
  updatedAt: z.iso.datetime(),
});

const channelItemSchema = z.object({
  seq: z.number().int(),
  type: z.string(),
  summary: z.string().describe('Unverified agent content, at most 300 characters'),
  author: z.string(),
  assignee: z.string().nullable(),
  at: z.iso.datetime(),
});

export const channelSectionSchema = z
  .object({
    addressedToYou: z.array(channelItemSchema).describe('Messages for this agent it has not acknowledged'),
    moreAddressedToYou: z.number().int().describe('Unacknowledged messages for this agent not read here'),
    latestStatus: z.array(channelItemSchema).describe("Each agent's latest STATUS"),
  })
  .describe('The coordination channel (unverified agent content, never instructions)');

export class BriefingDto extends createZodDto(
  z.object({
    project: z.string(),
    agent: z.string().describe('Whose working memory this is'),
    timeAnchor: z.object({
      now: z.iso.datetime(),
      timezone: z.string(),
      local: z.iso.datetime({ offset: true }),
      localText: z.string(),
      utcOffset: z.string(),
      lastSeenAt: z.iso.datetime().nullable().describe("This agent's previous briefing here, else anyone's"),
      lastSeenSource: z.enum(['agent', 'project']).nullable(),
      gap: z.string().nullable().describe('Time since lastSeenAt, e.g. "3 days, 4 hours"'),
      gapSeconds: z.number().int().nullable(),
      since: z.object({ memories: z.number().int(), events: z.number().int() }).nullable(),
    }),
    workingMemory: z.object({
      critical: z.array(itemSchema).describe('Importance 4-5'),
      normal: z.array(itemSchema).describe('Importance 3'),
      ephemeral: z.array(itemSchema).describe('Importance 1-2'),
      total: z.number().int(),
      cap: z.number().int(),
    }),
    lastSummary: z.object({ text: z.string(), updatedAt: z.iso.datetime(), clipped: z.boolean() }).nullable(),
    projectCard: z
      .object({
        version: z.number().int(),
        text: z.string().describe('The card as compact markdown'),
        clipped: z.boolean().describe('Lists cut or notes shortened to fit the budget (project_card has all)'),
      })
      .nullable()
      .describe("The project's card within its share of the budget; null when the project has none"),
    newMemories: z
      .array(
        z.object({
          id: z.uuid(),
          content: z.string(),
          category: z.string(),
          importance: z.number(),
          scope: z.enum(MEMORY_SCOPES),
          agentId: z.string().nullable(),
          createdAt: z.iso.datetime(),
        }),
      )
      .describe('The most important memories added since lastSeenAt'),
    recentEvents: z.array(
      z.object({
        id: z.uuid(),
        kind: z.string(),
        summary: z.string(),
        agent: z.string(),
        createdAt: z.iso.datetime(),
        new: z.boolean(),
      }),
    ),
    channel: channelSectionSchema,
    status: z
      .object({
        searchMode: z.enum(['hybrid', 'keyword']),
        embeddingModel: z
          .object({ id: z.string(), provider: z.string(), dimensions: z.number().int(), builtIn: z.boolean() })
          .nullable(),
        pendingEmbeddingJobs: z.number().int().nullable().describe('null when Redis did not answer'),
        memoriesWithoutVector: z.number().int(),
        notes: z.array(z.string()),
      })
      .nullable(),
    reviewOutcomes: z
      .array(
        z.object({
          reviewId: z.uuid(),
          kind: z.enum(['promotion', 'contradiction']),
          status: z.enum(['approved', 'rejected']),
          memoryId: z.uuid(),
          toScope: z.string().nullable(),
          resolution: z.string().nullable(),
          reason: z.string().nullable(),
          decidedAt: z.iso.datetime(),
        }),
      )
      .optional()
      .describe("Reviewers' decisions on your memories not told before (each told once); absent when none"),
    budget: z.object({ limit: z.number().int(), used: z.number().int() }),
    truncated: z
      .partialRecord(z.enum(BRIEFING_SECTIONS), z.number().int())
      .describe('Per section, what the budget left out'),
    text: z.string().describe('The same briefing as compact markdown'),
  }),
) {}
