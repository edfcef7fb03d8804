import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { BadRequestError } from '@cairn/common';
import { ZodResponse } from 'nestjs-zod';
import { BroadcastPosting } from '../broadcast-posting.service';
import { BroadcastReading } from '../broadcast-reading.service';
import {
  AckDto,
  AckResultDto,
  BroadcastPageDto,
  channelKeyArgument,
  PostBroadcastDto,
  PostedDto,
  ProjectParamDto,
  ReadQueryDto,
  toBroadcastView,
  toReadView,
  UNVERIFIED_NOTICE,
  VerificationDto,
} from '../contract/broadcast.dto';
import { CHANNEL_KEY_MAX_CHARS } from '../contract/broadcast.types';

/** The header carrying the channel key: never a body field, so request bodies hold no secret. */
export const CHANNEL_KEY_HEADER = 'x-channel-key';

@ApiTags('coordination')
@Controller('v1/projects/:project/broadcasts')
export class BroadcastsController {
  constructor(
    private readonly posting: BroadcastPosting,
    private readonly reading: BroadcastReading,
  ) {}

  @Post()
  @RequirePermission('broadcast.post')
  @ApiOperation({
    summary: "Post a message on the project's coordination channel",
    description:
      'ASSIGN, MERGE, REJECT and REVISE need the orchestrator or admin role; STATUS, PROPOSED and DEPENDENCY any ' +
      'role but reader. `files` are paths relative to the repository (absolute paths and `..` are refused); ' +
      '`replyTo` must name a message of this channel. When the project set a channel key, send it in the ' +
      '`X-Channel-Key` header (a missing or wrong key: 403 `channel_key_invalid`). At most ' +
      'BROADCAST_RATE_PER_MINUTE posts per agent per minute (429 with Retry-After). Secrets in the summary are ' +
      "redacted or refused by the tenant's setting.",
  })
  @ApiHeader({ name: 'X-Channel-Key', required: false, description: "The channel's posting key, when one is set" })
  @ZodResponse({ status: 201, type: PostedDto })
  async post(
    @Param() params: ProjectParamDto,
    @Body() body: PostBroadcastDto,
    @Headers(CHANNEL_KEY_HEADER) channelKey: string | string[] | undefined,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const parsed = channelKeyArgument.safeParse(channelKey);
    if (channelKey !== undefined && !parsed.success) {
      throw new BadRequestError(`${CHANNEL_KEY_HEADER}: one value of at most ${CHANNEL_KEY_MAX_CHARS} characters`);
    }
    const key = parsed.success ? parsed.data : undefined;
    const posted = await this.posting.post(params.project, principal, body, key);
    return { message: toBroadcastView(posted.message), redacted: [...posted.redacted], notice: UNVERIFIED_NOTICE };
  }

  @Get()
  @RequirePermission('broadcast.read')
  @ApiOperation({
    summary: 'Read the channel, oldest first, after a sequence number',
    description:
      'Filtered by types or assignee, or only the messages the caller (its agent id, else user, else token) has ' +
      'not acknowledged. `nextAfter` pages on. Every summary is unverified agent content.',
  })
  @ZodResponse({ status: 200, type: BroadcastPageDto })
  async read(
    @Param() params: ProjectParamDto,
    @Query() query: ReadQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const page = await this.reading.read(params.project, principal, query);
    return { items: page.items.map(toReadView), nextAfter: page.nextAfter, head: page.head, notice: UNVERIFIED_NOTICE };
  }

  @Post('acks')
  @HttpCode(200)
  @RequirePermission('broadcast.post')
  @ApiOperation({
    summary: 'Acknowledge messages (as the calling agent)',
    description: 'Idempotent; 404 naming any sequence number the channel does not have.',
  })
  @ZodResponse({ status: 200, type: AckResultDto })
  async acknowledge(
    @Param() params: ProjectParamDto,
    @Body() body: AckDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return this.reading.acknowledge(params.project, principal, body.seqs);
  }

  @Get('verify')
  @RequirePermission('broadcast.read')
  @ApiOperation({
    summary: "Verify the channel's hash chain",
    description: 'Recomputes every link from the genesis; names the first altered, removed or reordered message.',
  })
  @ZodResponse({ status: 200, type: VerificationDto })
  async verify(@Param() params: ProjectParamDto, @CurrentPrincipal() principal: SessionPrincipal) {
    return this.reading.verify(params.project, principal);
  }
}
