import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { MemoryDto, MemoryParamsDto, ProjectParamDto, toMemoryView, viewerOf } from '@cairn/memory';
import {
  DecayDto,
  DecayResultDto,
  DuplicatesDto,
  DuplicatesQueryDto,
  MergeDto,
  MergeResultDto,
  PruneDto,
  PruneResultDto,
} from '../contract/memory-hygiene.dto';
import { MemoryHygiene } from '../memory-hygiene.service';
import { MemoryMerger } from '../memory-merge.service';

@ApiTags('memories')
@Controller('v1/projects/:project/memories')
export class MemoryHygieneController {
  constructor(
    private readonly hygiene: MemoryHygiene,
    private readonly merger: MemoryMerger,
  ) {}

  @Post('decay')
  @HttpCode(200)
  @RequirePermission('memory.maintain')
  @ApiOperation({ summary: 'One confidence-decay step for unused, unpinned memories (reading raises it again)' })
  @ZodResponse({ status: 200, type: DecayResultDto })
  async decay(
    @Param() params: ProjectParamDto,
    @Body() body: DecayDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return { decayed: await this.hygiene.decay(params.project, principal, body) };
  }

  @Post('prune')
  @HttpCode(200)
  @RequirePermission('memory.maintain')
  @ApiOperation({ summary: 'Archive unused, unpinned, low-confidence memories (restorable)' })
  @ZodResponse({ status: 200, type: PruneResultDto })
  async prune(
    @Param() params: ProjectParamDto,
    @Body() body: PruneDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return { archived: await this.hygiene.prune(params.project, principal, body), dryRun: body.dryRun };
  }

  @Post(':id/restore')
  @HttpCode(200)
  @RequirePermission('memory.write')
  @ApiOperation({ summary: 'Bring an archived memory back (author or maintainer)' })
  @ZodResponse({ status: 200, type: MemoryDto })
  async restore(@Param() params: MemoryParamsDto, @CurrentPrincipal() principal: SessionPrincipal) {
    return toMemoryView(await this.hygiene.restore(params.project, principal, params.id));
  }

  @Get('duplicates')
  @RequirePermission('memory.read')
  @ApiOperation({
    summary: 'Candidate duplicate pairs: equal text, or vectors at or above the similarity threshold',
    description:
      'A page examines a bounded number of memories, newest first; follow nextCursor until it is null to see ' +
      'every pair once. Pairs are most similar first within a page.',
  })
  @ZodResponse({ status: 200, type: DuplicatesDto })
  async duplicates(
    @Param() params: ProjectParamDto,
    @Query() query: DuplicatesQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const { pairs, memories, nextCursor } =
      query.source === 'scan'
        ? await this.hygiene.scanned(params.project, viewerOf(principal), query.limit)
        : await this.hygiene.duplicates(params.project, viewerOf(principal), query);
    return { pairs, memories: memories.map(toMemoryView), nextCursor };
  }

  @Post(':id/merge')
  @HttpCode(200)
  @RequirePermission('memory.maintain')
  @ApiOperation({ summary: 'Merge duplicates into this memory; they become superseded by it and keep their history' })
  @ZodResponse({ status: 200, type: MergeResultDto })
  async merge(
    @Param() params: MemoryParamsDto,
    @Body() body: MergeDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const result = await this.merger.merge(params.project, principal, params.id, body);
    return { ...result, memory: toMemoryView(result.memory) };
  }
}
