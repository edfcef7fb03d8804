import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { defineTool, McpTool, type McpToolHandler, type SessionToolCall } from '@cairn/mcp';
import { statusToolOutputSchema } from '../contract/status.view';
import { SearchStatusReader } from '../search-status.service';
import { StatusReport } from '../status-report.service';

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
  output: statusToolOutputSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class StatusTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(
    private readonly search: SearchStatusReader,
    private readonly report: StatusReport,
  ) {}

  async run(_input: z.output<typeof spec.input>, call: SessionToolCall) {
    const token = this.report.tokenOf(call.principal);
    const search = await this.search.read();
    const server = this.report.server();
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
