import { Injectable } from '@nestjs/common';
import { TOOLSETS } from '@cairn/access';
import { z } from 'zod';
import { defineTool, McpTool, type McpToolHandler, SERVER_INFO, type SessionToolCall } from '@cairn/mcp';
import { SearchStatusReader } from '../search-status.service';

const spec = defineTool({
  name: 'status',
  title: 'Cairn status',
  toolset: 'core',
  permission: 'auth.whoami',
  scope: 'session',
  description: [
    'Who this token is (role, projects, toolsets), whether search is semantic or keyword-only and',
    'why, and the server version. Use it when a project is refused or search looks lexical. Example: {}',
  ].join(' '),
  input: z.strictObject({}),
  output: z.object({
    token: z.object({
      tenant: z.string(),
      role: z.string(),
      agentId: z.string().nullable(),
      userId: z.string().nullable(),
      projects: z.union([z.literal('*'), z.array(z.string())]).describe('"*" for every project of the tenant'),
      defaultProject: z.string().nullable(),
      toolsets: z.array(z.enum(TOOLSETS)),
      expiresAt: z.iso.datetime(),
    }),
    search: z.object({
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
    }),
    server: z.object({ name: z.string(), version: z.string() }),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class StatusTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly search: SearchStatusReader) {}

  async run(_input: z.output<typeof spec.input>, call: SessionToolCall) {
    const principal = call.principal;
    const token = {
      tenant: principal.tenant.slug,
      role: principal.role,
      agentId: principal.agentId,
      userId: principal.userId,
      projects: principal.projects === '*' ? ('*' as const) : [...principal.projects],
      defaultProject: principal.defaultProject,
      toolsets: [...principal.toolsets],
      expiresAt: principal.expiresAt.toISOString(),
    };
    const search = await this.search.read();
    const server = { name: SERVER_INFO.name, version: SERVER_INFO.version };
    const projects = token.projects === '*' ? 'every project' : token.projects.join(', ') || 'none';
    const text = [
      `Tenant ${token.tenant}, role ${token.role}${token.agentId ? `, agent ${token.agentId}` : ''}; ` +
        `projects: ${projects}; default: ${token.defaultProject ?? 'none'}; toolsets: ${token.toolsets.join(', ')}.`,
      `Search: ${search.mode} — ${search.reason}.`,
      `Cairn ${server.version}; token expires ${token.expiresAt.slice(0, 10)}.`,
    ].join('\n');
    return { structured: { token, search, server }, text };
  }
}
