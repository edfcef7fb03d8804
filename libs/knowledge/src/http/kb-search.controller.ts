import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { KbSearchService } from '../kb-search.service';
import { GlobalSearchDto, ProjectParamDto, SearchDto, SearchResultDto } from '../contract/kb.dto';
import { sessionPrincipal } from './session-principal';

@ApiTags('knowledge base')
@Controller()
export class KbSearchController {
  constructor(private readonly search: KbSearchService) {}

  @Post('v1/projects/:project/kb/search')
  @RequirePermission('kb.read')
  @ApiOperation({ summary: "Search the project's knowledge base (hybrid, keyword or semantic)" })
  @ZodResponse({ status: 200, type: SearchResultDto })
  searchProject(@Param() params: ProjectParamDto, @Body() body: SearchDto, @CurrentPrincipal() principal: Principal) {
    return this.search.search(params.project, sessionPrincipal(principal), body);
  }

  @Post('v1/kb/search')
  @RequirePermission('search.global')
  @ApiOperation({ summary: 'Search the knowledge base of every project the token may read' })
  @ZodResponse({ status: 200, type: SearchResultDto })
  searchGlobal(@Body() body: GlobalSearchDto, @CurrentPrincipal() principal: Principal) {
    return this.search.searchGlobal(sessionPrincipal(principal), body);
  }
}
