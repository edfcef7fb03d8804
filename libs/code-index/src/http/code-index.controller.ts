import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { ForbiddenError } from '@cairn/common';
import { ZodResponse } from 'nestjs-zod';
import { CodeQueries } from '../code-queries.service';
import { CodeRuns } from '../code-runs.service';
import { CodeUpload } from '../code-upload.service';
import {
  CodeProjectParamDto,
  ManifestDto,
  ManifestQueryDto,
  RemovalDto,
  RemovalResultDto,
  RunDto,
  RunResultDto,
  UploadDto,
  UploadResultDto,
} from '../contract/code-index.dto';

/** The routes `cairn index` drives (docs/code-index.md). */
@ApiTags('code index')
@Controller('v1/projects/:project/code')
export class CodeIndexController {
  constructor(
    private readonly queries: CodeQueries,
    private readonly upload: CodeUpload,
    private readonly runs: CodeRuns,
  ) {}

  @Get('manifest')
  @RequirePermission('kb.read')
  @ApiOperation({
    summary: "A page of a branch's manifest: every indexed path with its content hash, in path order",
    description: 'A client uploads only the files whose hash differs, and removes paths it no longer has.',
  })
  @ZodResponse({ status: 200, type: ManifestDto })
  async manifest(
    @Param() params: CodeProjectParamDto,
    @Query() query: ManifestQueryDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    const page = await this.queries.manifest(params.project, sessionOf(principal), query);
    return { ...page, indexedAt: page.indexedAt?.toISOString() ?? null };
  }

  @Put('files')
  @RequirePermission('kb.write')
  @Audited('code.index')
  @ApiOperation({
    summary: 'Index files of a branch (up to 100 per request)',
    description:
      'Each file is scanned for secrets, parsed for symbols and references, and chunked for search; a file whose ' +
      'content is already indexed at its path is left alone. Embeddings and L0/L1 summaries are queued.',
  })
  @ZodResponse({ status: 200, type: UploadResultDto })
  async index(@Param() params: CodeProjectParamDto, @Body() body: UploadDto, @CurrentPrincipal() principal: Principal) {
    const files = await this.upload.upload(params.project, sessionOf(principal), body);
    return { files: files.map((file) => ({ ...file, redacted: [...file.redacted] })) };
  }

  @Post('files/remove')
  @HttpCode(200)
  @RequirePermission('kb.write')
  @Audited('code.remove')
  @ApiOperation({ summary: 'Remove files from a branch of the index (paths not indexed are ignored)' })
  @ZodResponse({ status: 200, type: RemovalResultDto })
  remove(@Param() params: CodeProjectParamDto, @Body() body: RemovalDto, @CurrentPrincipal() principal: Principal) {
    return this.runs.remove(params.project, sessionOf(principal), body);
  }

  @Post('runs')
  @HttpCode(200)
  @RequirePermission('kb.write')
  @Audited('code.run')
  @ApiOperation({
    summary: 'Record a finished index run of a branch and derive the project card again',
    description: 'Sections of the card that were edited keep their edited text.',
  })
  @ZodResponse({ status: 200, type: RunResultDto })
  finish(@Param() params: CodeProjectParamDto, @Body() body: RunDto, @CurrentPrincipal() principal: Principal) {
    return this.runs.finish(params.project, sessionOf(principal), body);
  }
}

/** Project routes only ever admit session tokens (the guard); this narrows the type. */
function sessionOf(principal: Principal) {
  if (principal.kind !== 'session') {
    throw new ForbiddenError('The code index needs a tenant session token', 'session_token_required');
  }
  return principal;
}
