import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { SessionEventsService } from '../session-events.service';
import { SessionSummaryService } from '../session-summary.service';
import {
  RecordedSessionEventDto,
  SessionEventListDto,
  SessionEventsQueryDto,
  RecordSessionEventDto,
  SummarizeSessionDto,
  SessionSummaryResultDto,
  toEventView,
  toRecordedEventView,
} from '../contract/session.dto';
import { ProjectParamDto, toEntryView, toEvictedView } from '../contract/working-memory.dto';

@ApiTags('session')
@Controller('v1/projects/:project')
export class SessionController {
  constructor(
    private readonly events: SessionEventsService,
    private readonly summaries: SessionSummaryService,
  ) {}

  @Post('events')
  @RequirePermission('events.write')
  @ApiOperation({ summary: 'Record a session event (file written, error, decision, session start/end, custom)' })
  @ZodResponse({ status: 201, type: RecordedSessionEventDto })
  async record(
    @Param() params: ProjectParamDto,
    @Body() body: RecordSessionEventDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return toRecordedEventView(await this.events.record(params.project, principal, body));
  }

  @Get('events')
  @RequirePermission('context.read')
  @ApiOperation({
    summary: "The project's session events, newest first",
    description: 'Paged by `cursor`: pass the `nextCursor` of a page to get the events before it.',
  })
  @ZodResponse({ status: 200, type: SessionEventListDto })
  async recent(
    @Param() params: ProjectParamDto,
    @Query() query: SessionEventsQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const since = query.since === undefined ? undefined : new Date(query.since);
    const page = await this.events.page(params.project, principal, { ...query, since });
    return { items: page.items.map(toEventView), nextCursor: page.nextCursor };
  }

  @Post('session/summary')
  @RequirePermission('events.write')
  @ApiOperation({
    summary: 'Summarize the session',
    description:
      'Archives the summary in the knowledge base (retention tier "summary") and keeps it as the ' +
      '`last_session_summary` working-memory entry, which the next briefing shows.',
  })
  @ZodResponse({ status: 201, type: SessionSummaryResultDto })
  async summarize(
    @Param() params: ProjectParamDto,
    @Body() body: SummarizeSessionDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const result = await this.summaries.summarize(params.project, principal, body);
    return {
      document: { ...result.document, expiresAt: result.document.expiresAt.toISOString() },
      entry: toEntryView(result.entry),
      evicted: toEvictedView(result.evicted),
      redacted: [...result.redacted],
    };
  }
}
