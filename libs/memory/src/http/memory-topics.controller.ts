import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { viewerOf } from '../memory-access';
import { MemoryTopics } from '../memory-topics.service';
import { ProjectParamDto } from '../contract/memory.dto';
import {
  CategoriesQueryDto,
  CategoriesResultDto,
  TopicsQueryDto,
  TopicsResultDto,
} from '../contract/memory-topics.dto';

/** The topic view over REST, as memory_topics and memory_categories answer it. */
@ApiTags('memories')
@Controller('v1/projects/:project/memories')
export class MemoryTopicsController {
  constructor(private readonly topics: MemoryTopics) {}

  @Get('topics')
  @RequirePermission('memory.read')
  @ApiOperation({
    summary: 'Topics (tags, keywords, #hashtags) of the memories the caller may see, with counts per source',
  })
  @ZodResponse({ status: 200, type: TopicsResultDto })
  topicsOf(
    @Param() params: ProjectParamDto,
    @Query() query: TopicsQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return this.topics.topicsOf(params.project, viewerOf(principal), query.prefix, query.limit);
  }

  @Get('categories')
  @RequirePermission('memory.read')
  @ApiOperation({ summary: 'Memories per category the caller may see, with the newest few of each' })
  @ZodResponse({ status: 200, type: CategoriesResultDto })
  categoriesOf(
    @Param() params: ProjectParamDto,
    @Query() query: CategoriesQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return this.topics.categoriesOf(params.project, viewerOf(principal), query.perCategory);
  }
}
