import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { createZodDto, ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { MemoryReader } from '../memory-reader.service';
import { viewerOf } from '../memory-access';
import { MemoryLinks } from '../memory-relations.service';
import { RELATION_TYPES } from '../contract/memory.types';
import { toRelationView } from '../contract/memory-tool.schemas';
import { MemoryPageDto } from '../contract/memory-query.dto';
import {
  LinkDto,
  memorySchema,
  MemoryParamsDto,
  ProjectParamDto,
  RelationDto,
  relationSchema,
  toMemoryView,
  VerifyDto,
} from '../contract/memory.dto';

class RelatedQueryDto extends createZodDto(z.strictObject({ type: z.enum(RELATION_TYPES).optional() })) {}
class StaleQueryDto extends createZodDto(
  z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(50), cursor: z.uuid().optional() }),
) {}
class RelatedDto extends createZodDto(
  z.object({
    items: z.array(
      z.object({ relation: relationSchema, direction: z.enum(['outgoing', 'incoming']), memory: memorySchema }),
    ),
  }),
) {}
class VerifyResultDto extends createZodDto(z.object({ stale: z.boolean(), memory: memorySchema })) {}
class HistoryDto extends createZodDto(
  z.object({
    memory: memorySchema,
    versions: z.array(
      z.object({
        version: z.number(),
        snapshot: z.record(z.string(), z.unknown()),
        changedBy: z.object({ userId: z.string().nullable(), agentId: z.string().nullable() }),
        reason: z.string().nullable(),
        createdAt: z.iso.datetime(),
      }),
    ),
  }),
) {}

@ApiTags('memories')
@Controller('v1/projects/:project/memories')
export class MemoryLinksController {
  constructor(
    private readonly links: MemoryLinks,
    private readonly reader: MemoryReader,
  ) {}

  @Get('stale')
  @RequirePermission('memory.read')
  @ApiOperation({ summary: 'Memories whose source file changed since they were written' })
  @ZodResponse({ status: 200, type: MemoryPageDto })
  async stale(
    @Param() params: ProjectParamDto,
    @Query() query: StaleQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const page = await this.reader.stale(params.project, viewerOf(principal), query.limit, query.cursor);
    return { items: page.items.map(toMemoryView), nextCursor: page.nextCursor };
  }

  @Get(':id/history')
  @RequirePermission('memory.read')
  @ApiOperation({ summary: 'Earlier versions of a memory: who changed it, when and why' })
  @ZodResponse({ status: 200, type: HistoryDto })
  async history(@Param() params: MemoryParamsDto, @CurrentPrincipal() principal: SessionPrincipal) {
    const { memory, versions } = await this.reader.history(params.project, viewerOf(principal), params.id);
    return {
      memory: toMemoryView(memory),
      versions: versions.map((v) => ({ ...v, createdAt: v.createdAt.toISOString() })),
    };
  }

  @Post(':id/relations')
  @RequirePermission('memory.write')
  @ApiOperation({ summary: 'Link this memory to another (idempotent); supersedes retires the target' })
  @ZodResponse({ status: 201, type: RelationDto })
  async link(@Param() params: MemoryParamsDto, @Body() body: LinkDto, @CurrentPrincipal() principal: SessionPrincipal) {
    return toRelationView(await this.links.link(params.project, principal, params.id, body));
  }

  @Get(':id/related')
  @RequirePermission('memory.read')
  @ApiOperation({ summary: 'Memories linked to this one, in both directions' })
  @ZodResponse({ status: 200, type: RelatedDto })
  async related(
    @Param() params: MemoryParamsDto,
    @Query() query: RelatedQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const items = await this.reader.related(params.project, viewerOf(principal), params.id, query.type);
    return {
      items: items.map((item) => ({
        relation: toRelationView(item.relation),
        direction: item.direction,
        memory: toMemoryView(item.memory),
      })),
    };
  }

  @Post(':id/verify')
  @HttpCode(200)
  @RequirePermission('memory.write')
  @ApiOperation({ summary: "Compare the source file's current hash with the one recorded; mark stale or fresh" })
  @ZodResponse({ status: 200, type: VerifyResultDto })
  async verify(
    @Param() params: MemoryParamsDto,
    @Body() body: VerifyDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const { memory, stale } = await this.links.verify(params.project, viewerOf(principal), params.id, body.contentHash);
    return { stale, memory: toMemoryView(memory) };
  }
}
