import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { ProjectCards } from '../project-cards.service';
import {
  CardVersionParamsDto,
  CardVersionsQueryDto,
  ProjectCardDto,
  ProjectCardEditDto,
  ProjectCardVersionPageDto,
  ProjectParamDto,
} from '../contract/project-card.dto';

/** The project card over REST, as project_card and project_card_edit answer it. */
@ApiTags('project card')
@Controller('v1/projects/:project/card')
export class ProjectCardController {
  constructor(private readonly cards: ProjectCards) {}

  @Get()
  @RequirePermission('kb.read')
  @ApiOperation({
    summary: "The project's card: stack, layout, entry points, build and test, conventions, hot files, notes",
    description: 'Version 0 with empty sections when the project has no card yet.',
  })
  @ZodResponse({ status: 200, type: ProjectCardDto })
  current(@Param() params: ProjectParamDto, @CurrentPrincipal() principal: SessionPrincipal) {
    return this.cards.current(params.project, principal);
  }

  @Patch()
  @RequirePermission('kb.write')
  @Audited('project_card.edit')
  @ApiOperation({
    summary: 'Edit the card: a new version with the given sections replaced',
    description:
      'The sections named in `changes` replace the current ones whole and count as edited from then on: ' +
      'the code index no longer refreshes them. With `expectedVersion`, refused with 409 when another ' +
      'version is current. Secrets in the text are redacted.',
  })
  @ZodResponse({ status: 200, type: ProjectCardDto })
  edit(
    @Param() params: ProjectParamDto,
    @Body() body: ProjectCardEditDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return this.cards.edit(params.project, principal, body);
  }

  @Get('versions')
  @RequirePermission('kb.read')
  @ApiOperation({ summary: "The card's versions, newest first, without their content; paged by `before`" })
  @ZodResponse({ status: 200, type: ProjectCardVersionPageDto })
  versions(
    @Param() params: ProjectParamDto,
    @Query() query: CardVersionsQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return this.cards.versions(params.project, principal, query);
  }

  @Get('versions/:version')
  @RequirePermission('kb.read')
  @ApiOperation({ summary: 'One version of the card, with its content' })
  @ZodResponse({ status: 200, type: ProjectCardDto })
  version(@Param() params: CardVersionParamsDto, @CurrentPrincipal() principal: SessionPrincipal) {
    return this.cards.version(params.project, principal, params.version);
  }
}
