import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ExtractionInputDto, GenerationRequests, RequestAcceptedDto } from '@cairn/generation';
import { ZodResponse } from 'nestjs-zod';
import { ProposalsService } from '../proposals.service';
import {
  AcceptedProposalDto,
  AcceptProposalDto,
  ProposalDto,
  ProjectParamDto,
  ProposalPageDto,
  ProposalParamsDto,
  ProposalsQueryDto,
  RejectProposalDto,
  toProposalView,
} from './extraction.dto';

@ApiTags('extraction')
@Controller('v1/projects/:project')
export class ExtractionController {
  constructor(
    private readonly requests: GenerationRequests,
    private readonly proposals: ProposalsService,
  ) {}

  @Post('extract')
  @RequirePermission('memory.extract')
  @ApiOperation({
    summary: 'Have the worker extract candidate memories from a transcript',
    description:
      "Up to 20 candidates, stored as pending proposals or directly as memories per the tenant's extraction " +
      'mode. Poll GET requests/{requestId}.',
  })
  @ZodResponse({ status: 202, type: RequestAcceptedDto })
  extract(
    @Param() params: ProjectParamDto,
    @Body() body: ExtractionInputDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const occurredAt = body.occurredAt === undefined ? undefined : new Date(body.occurredAt);
    return this.requests.submit(params.project, principal, 'fact_extraction', body.transcript, occurredAt);
  }

  @Get('proposals')
  @RequirePermission('memory.read')
  @ApiOperation({ summary: 'Memory proposals of the project, newest first (pending by default)' })
  @ZodResponse({ status: 200, type: ProposalPageDto })
  async list(@Param() params: ProjectParamDto, @Query() query: ProposalsQueryDto) {
    const page = await this.proposals.list(params.project, query);
    return { items: page.items.map(toProposalView), nextCursor: page.nextCursor };
  }

  @Post('proposals/:id/accept')
  @RequirePermission('proposals.decide')
  @Audited('proposal.accept')
  @ApiOperation({
    summary: 'Accept a proposal, optionally edited: it becomes a memory authored by the reviewer',
    description: 'The memory is tagged "extracted". 409 when the proposal was already decided.',
  })
  @ZodResponse({ status: 200, type: AcceptedProposalDto })
  async accept(
    @Param() params: ProposalParamsDto,
    @Body() body: AcceptProposalDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const { proposal, warnings } = await this.proposals.accept(params.project, principal, params.id, body);
    return { proposal: toProposalView(proposal), warnings };
  }

  @Post('proposals/:id/reject')
  @RequirePermission('proposals.decide')
  @Audited('proposal.reject')
  @ApiOperation({ summary: 'Reject a proposal; 409 when it was already decided' })
  @ZodResponse({ status: 200, type: ProposalDto })
  async reject(
    @Param() params: ProposalParamsDto,
    @Body() _body: RejectProposalDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return toProposalView(await this.proposals.reject(params.project, principal, params.id));
  }
}
