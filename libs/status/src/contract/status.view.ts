import { TOOLSETS } from '@cairn/access';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

/** Who the calling token is: the `token` part of the `status` tool and of `GET /v1/status`. */
export const tokenStatusSchema = z.object({
  tenant: z.string(),
  role: z.string(),
  agentId: z.string().nullable(),
  userId: z.string().nullable(),
  projects: z.union([z.literal('*'), z.array(z.string())]).describe('"*" for every project of the tenant'),
  defaultProject: z.string().nullable(),
  toolsets: z.array(z.enum(TOOLSETS)),
  expiresAt: z.iso.datetime(),
});
export type TokenStatus = z.infer<typeof tokenStatusSchema>;

/** Whether search is hybrid or keyword-only for the caller's tenant, and why. */
export const searchStatusSchema = z.object({
  mode: z.enum(['hybrid', 'keyword']),
  reason: z.string(),
  embedding: z
    .object({
      provider: z.string(),
      model: z.string(),
      dimensions: z.number().int(),
      builtIn: z.boolean(),
    })
    .describe('The embedding model: provider, model, dimensions, builtIn'),
  backfill: z
    .object({
      status: z.enum(['running', 'done']),
      embedded: z.number().int(),
      startedAt: z.iso.datetime(),
      completedAt: z.iso.datetime().nullable(),
    })
    .nullable()
    .describe('Re-embedding after a model change: status (running, done), embedded, startedAt, completedAt'),
  providerReachable: z.boolean().nullable().describe('null for the built-in embedder'),
});

export const serverInfoSchema = z.object({ name: z.string(), version: z.string() });

/** The `status` tool's structured output. */
export const statusToolOutputSchema = z.object({
  token: tokenStatusSchema,
  search: searchStatusSchema,
  server: serverInfoSchema,
});

/**
 * Where agents reach the MCP gateway, for clients that are given only the REST API's URL (the
 * `cairn` command's `connect` and `doctor`): the endpoint is a separate app, often on another
 * port or host, and only the operator's MCP_PUBLIC_URL says where it is seen from outside.
 */
export const mcpEndpointSchema = z.object({
  url: z
    .string()
    .nullable()
    .describe('MCP_PUBLIC_URL + "/mcp" when the operator set it; null: not configured, ask the operator'),
  port: z
    .number()
    .int()
    .describe('The port the gateway listens on (MCP_PORT), for installations that serve it beside the API'),
});
export type McpEndpoint = z.infer<typeof mcpEndpointSchema>;

/** `GET /v1/status`: the `status` tool over REST, plus where the MCP endpoint is. */
export const serviceStatusSchema = z.object({
  token: tokenStatusSchema.nullable().describe('null for the platform admin token, which has no tenant'),
  search: searchStatusSchema.nullable().describe('null for the platform admin token'),
  server: serverInfoSchema,
  mcp: mcpEndpointSchema,
});
export class ServiceStatusDto extends createZodDto(serviceStatusSchema) {}
