import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, RequirePermission, ROLE_PERMISSIONS, ROLES } from '@cairn/access';
import { createZodDto, ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { TokensService } from '../tokens.service';

const introspectRequestSchema = z.strictObject({ token: z.string().min(1).max(1024) });
class IntrospectRequestDto extends createZodDto(introspectRequestSchema) {}

const introspectionSchema = z.object({
  active: z.boolean(),
  tenant: z.string().optional(),
  role: z.enum(ROLES).optional(),
  agentId: z.string().nullable().optional(),
  projects: z.union([z.literal('*'), z.array(z.string())]).optional(),
  defaultProject: z.string().nullable().optional().describe('Project MCP tool calls use when they name none'),
  expiresAt: z.iso.datetime().optional(),
  sub: z.string().optional().describe('User id, absent for service tokens'),
  token_type: z.literal('session').optional(),
  exp: z.number().int().optional(),
  iat: z.number().int().optional(),
});
class IntrospectionDto extends createZodDto(introspectionSchema) {}

const whoamiSchema = z.object({
  kind: z.enum(['platform', 'session']),
  tenant: z.object({ id: z.string(), slug: z.string(), name: z.string() }).optional(),
  tokenId: z.string().optional(),
  role: z.enum(ROLES).optional(),
  userId: z.string().nullable().optional(),
  agentId: z.string().nullable().optional(),
  projects: z.union([z.literal('*'), z.array(z.string())]).optional(),
  defaultProject: z.string().nullable().optional().describe('Project MCP tool calls use when they name none'),
  expiresAt: z.iso.datetime().optional(),
  permissions: z.array(z.string()),
});
class WhoamiDto extends createZodDto(whoamiSchema) {}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

@ApiTags('auth')
@Controller('v1')
export class AuthController {
  constructor(private readonly tokens: TokensService) {}

  @Post('auth/introspect')
  @HttpCode(200)
  @RequirePermission('auth.introspect')
  @Audited('token.introspect')
  @ApiOperation({
    summary: 'RFC 7662 token introspection (platform admin: any token; tenant admin: its own tenant)',
  })
  @ZodResponse({ status: 200, type: IntrospectionDto })
  async introspect(@Body() body: IntrospectRequestDto, @CurrentPrincipal() caller: Principal) {
    const result = await this.tokens.introspect(caller, body.token);
    if (!result.active) return { active: false };
    const { principal, issuedAt } = result;
    return {
      active: true,
      tenant: principal.tenant.slug,
      role: principal.role,
      agentId: principal.agentId,
      projects: principal.projects === '*' ? ('*' as const) : [...principal.projects],
      defaultProject: principal.defaultProject,
      expiresAt: principal.expiresAt.toISOString(),
      ...(principal.userId ? { sub: principal.userId } : {}),
      token_type: 'session' as const,
      exp: epochSeconds(principal.expiresAt),
      iat: epochSeconds(issuedAt),
    };
  }

  @Get('whoami')
  @RequirePermission('auth.whoami')
  @ApiOperation({ summary: 'Describe the calling principal and what it may do' })
  @ZodResponse({ status: 200, type: WhoamiDto })
  whoami(@CurrentPrincipal() principal: Principal) {
    if (principal.kind === 'platform') return { kind: 'platform' as const, permissions: ['*'] };
    return {
      kind: 'session' as const,
      tenant: { id: principal.tenant.id, slug: principal.tenant.slug, name: principal.tenant.name },
      tokenId: principal.tokenId,
      role: principal.role,
      userId: principal.userId,
      agentId: principal.agentId,
      projects: principal.projects === '*' ? ('*' as const) : [...principal.projects],
      defaultProject: principal.defaultProject,
      expiresAt: principal.expiresAt.toISOString(),
      permissions: [...ROLE_PERMISSIONS[principal.role]],
    };
  }
}
