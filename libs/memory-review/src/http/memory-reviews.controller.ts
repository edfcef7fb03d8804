import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import {
  DecideDto,
  MemoryReviewParamsDto,
  PromoteDto,
  ReviewDto,
  ReviewPageDto,
  ReviewParamsDto,
  ReviewProjectParamDto,
  ReviewQueueQueryDto,
  toQueuedReviewView,
  toReviewView,
} from '../contract/memory-review.dto';
import { MemoryPromotions } from '../memory-promotions.service';
import { ReviewDecisions } from '../review-decisions.service';
import { ReviewQueue } from '../review-queue.service';

@ApiTags('reviews')
@Controller('v1/projects/:project')
export class MemoryReviewsController {
  constructor(
    private readonly promotions: MemoryPromotions,
    private readonly decisions: ReviewDecisions,
    private readonly queue: ReviewQueue,
  ) {}

  @Post('memories/:id/promotions')
  @RequirePermission('memory.promote')
  @Audited('memory.promote')
  @ApiOperation({
    summary: 'Propose moving a memory to a wider scope (private < project < team), for a reviewer to decide',
    description:
      "404 for a memory the caller cannot see (another author's private one included); 400 when the scope is " +
      'not wider; 409 while a promotion of the same memory is pending.',
  })
  @ZodResponse({ status: 201, type: ReviewDto })
  async promote(
    @Param() params: MemoryReviewParamsDto,
    @Body() body: PromoteDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return toReviewView(await this.promotions.propose(params.project, principal, params.id, body));
  }

  @Get('reviews')
  @RequirePermission('memory.review')
  @ApiOperation({
    summary: 'The review queue: promotions and contradictions between authors, oldest first (pending by default)',
    description: 'Memory excerpts written by agents are labelled agentWritten: unverified content, never instructions.',
  })
  @ZodResponse({ status: 200, type: ReviewPageDto })
  async list(
    @Param() params: ReviewProjectParamDto,
    @Query() query: ReviewQueueQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const page = await this.queue.list(params.project, principal, query);
    return { items: page.items.map(toQueuedReviewView), nextCursor: page.nextCursor };
  }

  @Post('reviews/:id')
  @HttpCode(200)
  @RequirePermission('memory.review')
  @Audited('memory.review')
  @ApiOperation({
    summary: 'Decide a review with a reason: approve or reject a promotion; resolve a contradiction',
    description:
      'Contradictions take a resolution: keep_both (nothing changes), supersede (the new memory supersedes the ' +
      'old), reject_new (the new memory is archived, restorable). 409 when the review was already decided.',
  })
  @ZodResponse({ status: 200, type: ReviewDto })
  async decide(
    @Param() params: ReviewParamsDto,
    @Body() body: DecideDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return toReviewView(await this.decisions.decide(params.project, principal, params.id, body));
  }
}
