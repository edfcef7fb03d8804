import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { type FastifyReply } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import { KbFetchService } from '../kb-fetch.service';
import { FetchDto, FetchJobParamsDto, FetchResultDto, ProjectParamDto, toFetchResultDto } from '../contract/kb.dto';
import { sessionPrincipal } from './session-principal';

@ApiTags('knowledge base')
@Controller('v1/projects/:project/kb')
export class KbFetchController {
  constructor(private readonly fetches: KbFetchService) {}

  @Post('fetch')
  @RequirePermission('kb.write')
  @Audited('kb.fetch')
  @ApiOperation({
    summary: 'Fetch a web page into the project knowledge base',
    description:
      'The worker fetches the URL (public addresses only; the tenant host lists apply), converts HTML to ' +
      'Markdown and indexes it as an external, untrusted document. Answers the document (200) when the fetch ' +
      'ends within KB_FETCH_WAIT_MS, else 202 with the job id. Refusals: 400 bad URL, 403 blocked address or ' +
      'host, 429 daily fetch budget spent, 502/504 the page failed or took too long.',
  })
  @ZodResponse({ status: 200, type: FetchResultDto })
  @ApiResponse({
    status: 202,
    description: 'Still fetching: `status: "pending"` with the job id; GET `fetch/{jobId}` reads the result',
  })
  async fetch(
    @Param() params: ProjectParamDto,
    @Body() body: FetchDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const outcome = await this.fetches.fetch(params.project, sessionPrincipal(principal), body);
    if (outcome.status === 'pending') reply.status(202);
    return toFetchResultDto(outcome);
  }

  @Get('fetch/:jobId')
  @RequirePermission('kb.read')
  @ApiOperation({
    summary: 'Read the result of a fetch that answered 202',
    description:
      'By the job id the 202 gave: "pending" while the worker fetches, "done" with the stored document, or ' +
      '"failed" with the error the fetch answered (e.g. 403 blocked-address). A job of another project or ' +
      'tenant, or one finished more than an hour ago, is 404.',
  })
  @ZodResponse({ status: 200, type: FetchResultDto })
  async status(@Param() params: FetchJobParamsDto, @CurrentPrincipal() principal: Principal) {
    return toFetchResultDto(await this.fetches.status(params.project, sessionPrincipal(principal), params.jobId));
  }
}
