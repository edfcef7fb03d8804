import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { MemoryParamsDto, ProjectParamDto } from '@cairn/memory';
import { type FastifyReply } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import {
  granteeOf,
  MySharesPageDto,
  MySharesQueryDto,
  RuleViewDto,
  ShareMemoryDto,
  ShareParamsDto,
  ShareRuleDto,
  SharedWithMePageDto,
  SharedWithMeQueryDto,
  SHARED_CONTENT_NOTE,
  ShareViewDto,
  toGrantView,
  toRuleView,
  toSharedMemoryView,
  toShareView,
} from '../contract/sharing.dto';
import { MemorySharing } from '../memory-sharing.service';
import { SharingListings } from '../sharing-listings.service';

/** Sharing over REST (`/v1/projects/{project}/…`); `memory_share` and its siblings over MCP. */
@ApiTags('sharing')
@Controller('v1/projects/:project')
export class MemorySharingController {
  constructor(
    private readonly sharing: MemorySharing,
    private readonly listings: SharingListings,
  ) {}

  @Post('memories/:id/shares')
  @RequirePermission('memory.share')
  @ApiOperation({
    summary:
      'Share a memory with a user or an agent, read or write (owner or admin); 201 new, 200 permission changed. ' +
      '400 self_share, unknown_user; 403 not_owner; 404 memory',
  })
  @ZodResponse({ status: 201, type: ShareViewDto })
  @ApiResponse({
    status: 200,
    description: 'The grantee already had a share: its permission as asked now',
    type: ShareViewDto,
  })
  async share(
    @Param() params: MemoryParamsDto,
    @Body() body: ShareMemoryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.sharing.shareMemory(
      params.project,
      principal,
      params.id,
      granteeOf(body),
      body.permission,
    );
    if (!result.created) void reply.status(200);
    return toShareView(result.share);
  }

  @Post('share-rules')
  @RequirePermission('memory.share')
  @ApiOperation({
    summary:
      'Share every memory of yours carrying a tag (here, or in every project), later ones too; 201 new, 200 ' +
      'permission changed. 400 self_share, unknown_user; 403 scope_too_narrow',
  })
  @ZodResponse({ status: 201, type: RuleViewDto })
  @ApiResponse({ status: 200, description: 'The same rule existed: its permission as asked now', type: RuleViewDto })
  async shareTag(
    @Param() params: ProjectParamDto,
    @Body() body: ShareRuleDto,
    @CurrentPrincipal() principal: SessionPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.sharing.shareTag(params.project, principal, {
      tag: body.tag,
      allProjects: body.allProjects,
      grantee: granteeOf(body),
      permission: body.permission,
    });
    if (!result.created) void reply.status(200);
    return toRuleView(result.rule);
  }

  @Delete('shares/:id')
  @HttpCode(204)
  @RequirePermission('memory.share')
  @ApiOperation({ summary: "Remove a memory's share, effective at once (owner or admin). 403 not_owner; 404" })
  async unshare(@Param() params: ShareParamsDto, @CurrentPrincipal() principal: SessionPrincipal): Promise<void> {
    await this.sharing.unshareMemory(params.project, principal, params.id);
  }

  @Delete('share-rules/:id')
  @HttpCode(204)
  @RequirePermission('memory.share')
  @ApiOperation({ summary: 'Remove a tag rule, effective at once (owner or admin). 403 not_owner; 404' })
  async deleteRule(@Param() params: ShareParamsDto, @CurrentPrincipal() principal: SessionPrincipal): Promise<void> {
    await this.sharing.deleteRule(params.project, principal, params.id);
  }

  @Get('shared-with-me')
  @RequirePermission('memory.read')
  @ApiOperation({ summary: 'Memories others shared with you here (by share or tag rule), newest first' })
  @ZodResponse({ status: 200, type: SharedWithMePageDto })
  async sharedWithMe(
    @Param() params: ProjectParamDto,
    @Query() query: SharedWithMeQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const page = await this.listings.sharedWithMe(params.project, principal, query.limit, query.cursor);
    return { items: page.items.map(toSharedMemoryView), nextCursor: page.nextCursor, note: SHARED_CONTENT_NOTE };
  }

  @Get('shares')
  @RequirePermission('memory.read')
  @ApiOperation({
    summary:
      'The shares and tag rules you made here, newest first; all=true (admins) lists everyone’s. 403 admin_required',
  })
  @ZodResponse({ status: 200, type: MySharesPageDto })
  async myShares(
    @Param() params: ProjectParamDto,
    @Query() query: MySharesQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const page = await this.listings.myShares(params.project, principal, query);
    return { items: page.items.map(toGrantView), nextCursor: page.nextCursor };
  }
}
