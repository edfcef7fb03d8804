import { Inject, Injectable } from '@nestjs/common';
import { type Principal, type SessionPrincipal } from '@cairn/access';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { SERVER_INFO } from '@cairn/mcp';
import { type z } from 'zod';
import { type McpEndpoint, type serviceStatusSchema, type TokenStatus } from './contract/status.view';
import { SearchStatusReader } from './search-status.service';

/**
 * What the `status` tool and `GET /v1/status` report, built once so both doors say the same:
 * who the token is, what search can do for its tenant, the server version, and (REST only)
 * where the MCP endpoint is.
 */
@Injectable()
export class StatusReport {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly search: SearchStatusReader,
  ) {}

  tokenOf(principal: SessionPrincipal): TokenStatus {
    return {
      tenant: principal.tenant.slug,
      role: principal.role,
      agentId: principal.agentId,
      userId: principal.userId,
      projects: principal.projects === '*' ? ('*' as const) : [...principal.projects],
      defaultProject: principal.defaultProject,
      toolsets: [...principal.toolsets],
      expiresAt: principal.expiresAt.toISOString(),
    };
  }

  server(): { name: string; version: string } {
    return { name: SERVER_INFO.name, version: SERVER_INFO.version };
  }

  mcpEndpoint(): McpEndpoint {
    const base = this.config.mcp.publicUrl;
    return { url: base === undefined ? null : `${base}/mcp`, port: this.config.http.ports.mcpGateway };
  }

  /** The REST view; runs inside the caller's tenant context (none for the platform admin). */
  async read(principal: Principal): Promise<z.infer<typeof serviceStatusSchema>> {
    const session = principal.kind === 'session' ? principal : undefined;
    return {
      token: session ? this.tokenOf(session) : null,
      search: session ? await this.search.read() : null,
      server: this.server(),
      mcp: this.mcpEndpoint(),
    };
  }
}
