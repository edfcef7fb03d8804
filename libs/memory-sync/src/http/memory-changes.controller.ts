import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { ProjectParamDto, toMemoryView, viewerOf } from '@cairn/memory';
import { type ChangeItem, MemoryChanges } from '../memory-changes.service';
import { ChangesPageDto, ChangesQueryDto } from '../contract/memory-sync.dto';

const toItemView = (item: ChangeItem) =>
  item.kind === 'memory'
    ? { memory: toMemoryView(item.memory) }
    : { id: item.id, deleted: true as const, changedAt: item.changedAt.toISOString(), reason: item.reason };

@ApiTags('memories')
@Controller('v1/projects/:project/memories')
export class MemoryChangesController {
  constructor(private readonly changes: MemoryChanges) {}

  @Get('changes')
  @RequirePermission('memory.read')
  @ApiOperation({
    summary: 'Memories changed since a cursor, deletions as tombstones, in commit-safe order',
    description:
      'Start without `since`; apply the items, keep `nextCursor`, and call again with it. ' +
      'While `hasMore` is true more is ready at once; otherwise poll later. Each change appears once; ' +
      'a memory changed again reappears with its new state.',
  })
  @ZodResponse({ status: 200, type: ChangesPageDto })
  async list(
    @Param() params: ProjectParamDto,
    @Query() query: ChangesQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const page = await this.changes.since(params.project, viewerOf(principal), query.since, query.limit);
    return { items: page.items.map(toItemView), nextCursor: page.nextCursor, hasMore: page.hasMore };
  }
}
