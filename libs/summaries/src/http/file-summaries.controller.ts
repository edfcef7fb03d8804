import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { type FastifyReply } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import { FileSummaries } from '../file-summaries.service';
import {
  FileSummaryAcceptedDto,
  FileSummaryDto,
  FileSummaryQueryDto,
  FileSummaryRequestDto,
  ProjectParamDto,
  toAcceptedView,
  toFileSummaryView,
} from '../contract/file-summaries.dto';

@ApiTags('file summaries')
@Controller('v1/projects/:project/files/summary')
export class FileSummariesController {
  constructor(private readonly summaries: FileSummaries) {}

  @Post()
  @RequirePermission('files.summarize')
  @ApiOperation({
    summary: "Summarize a file's content (L0 one line, L1 structure)",
    description:
      'Keyed by path and the SHA-256 of the content: a ready summary of the same content is returned at once ' +
      '(200); otherwise the worker summarizes it (202) and GET returns it when ready.',
  })
  @ZodResponse({ status: 202, type: FileSummaryAcceptedDto })
  @ApiResponse({ status: 200, description: 'The summary of this very content was already ready' })
  async request(
    @Param() params: ProjectParamDto,
    @Body() body: FileSummaryRequestDto,
    @CurrentPrincipal() principal: SessionPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const summary = await this.summaries.request(params.project, principal, body);
    if (summary.status === 'ready') reply.status(200);
    return toAcceptedView(summary);
  }

  @Get()
  @RequirePermission('files.read')
  @ApiOperation({
    summary: 'The summary of the most recently sent version of a file',
    description: '`stale` when a newer version was sent and is still being summarized; 404 for a path never sent.',
  })
  @ZodResponse({ status: 200, type: FileSummaryDto })
  async current(@Param() params: ProjectParamDto, @Query() query: FileSummaryQueryDto) {
    const { summary, stale } = await this.summaries.current(params.project, query.path);
    return toFileSummaryView(summary, stale);
  }
}
