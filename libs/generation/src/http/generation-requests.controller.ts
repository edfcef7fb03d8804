import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { GenerationRequests } from '../generation-requests.service';
import {
  GenerationRequestDto,
  ProjectParamDto,
  RequestAcceptedDto,
  RequestParamsDto,
  toRequestView,
  TranscriptDto,
} from '../contract/generation-requests.dto';

@ApiTags('session')
@Controller('v1/projects/:project')
export class GenerationRequestsController {
  constructor(private readonly requests: GenerationRequests) {}

  @Post('session/summarize')
  @RequirePermission('events.write')
  @ApiOperation({
    summary: 'Have the worker summarize a session transcript',
    description:
      'The summary (≤ 1,500 characters: decisions, files, open problems, next steps) is filed like ' +
      'POST session/summary: archived in the knowledge base and kept as the calling agent’s ' +
      '`last_session_summary`. Poll GET requests/{requestId}.',
  })
  @ZodResponse({ status: 202, type: RequestAcceptedDto })
  summarize(
    @Param() params: ProjectParamDto,
    @Body() body: TranscriptDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return this.requests.submit(params.project, principal, 'session_summary', body.transcript);
  }

  @Get('requests/:id')
  @RequirePermission('memory.read')
  @ApiOperation({ summary: 'Status and result of a session-summary or fact-extraction request of the project' })
  @ZodResponse({ status: 200, type: GenerationRequestDto })
  async get(@Param() params: RequestParamsDto) {
    return toRequestView(await this.requests.get(params.project, params.id));
  }
}
