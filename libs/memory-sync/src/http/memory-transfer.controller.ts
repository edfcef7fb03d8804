import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { CairnError } from '@cairn/common';
import { ZodResponse } from 'nestjs-zod';
import { ProjectParamDto } from '@cairn/memory';
import { NDJSON } from '../contract/export-format';
import { MemoryExporter } from '../memory-export.service';
import { MemoryImporter } from '../memory-import.service';
import { ExportQueryDto, ImportQueryDto, ImportResultDto } from '../contract/memory-sync.dto';

const FORMAT_NOTE =
  'JSON Lines: a header {"format":"cairn.memories","version":1,"project","exportedAt"}, then one memory per line ' +
  '(id, scope, content, category, tags, keywords, importance, confidence, source, pinned, stale, verifiedAt, ' +
  'archived, archivedAt, supersededBy, version, accessCount, lastAccessedAt, createdAt, updatedAt, author, relations; ' +
  'sensitive when true; secrets, the sealed originals as ciphertext, only with secrets=ciphertext).';

@ApiTags('memories')
@Controller('v1/projects/:project/memories')
export class MemoryTransferController {
  constructor(
    private readonly exporter: MemoryExporter,
    private readonly importer: MemoryImporter,
  ) {}

  @Get('export')
  @RequirePermission('memory.read')
  @ApiOperation({ summary: "Stream the project's live memories as JSON Lines", description: FORMAT_NOTE })
  @ApiProduces(NDJSON)
  async export(
    @Param() params: ProjectParamDto,
    @Query() query: ExportQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ): Promise<StreamableFile> {
    const { project, stream } = await this.exporter.open(params.project, principal, query);
    return new StreamableFile(stream, {
      type: NDJSON,
      disposition: `attachment; filename="${project.slug}-memories.ndjson"`,
    });
  }

  @Post('import')
  @HttpCode(200)
  @RequirePermission('memory.maintain')
  @ApiOperation({
    summary: 'Import a JSON Lines export: all lines valid or nothing written; ids and timestamps kept',
    description:
      `${FORMAT_NOTE} Identical memories already present are skipped, so re-importing is harmless. ` +
      "Private memories keep their authors; only an admin imports another author's (a restore, 403 not_owner otherwise).",
  })
  @ApiConsumes(NDJSON)
  @ApiBody({ schema: { type: 'string' } })
  @ZodResponse({ status: 200, type: ImportResultDto })
  async import(
    @Param() params: ProjectParamDto,
    @Query() query: ImportQueryDto,
    @Body() body: unknown,
    @Headers('content-type') contentType: string | undefined,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    // Plain text also arrives as a string; only the declared format is accepted.
    if (typeof body !== 'string' || !contentType?.toLowerCase().startsWith(NDJSON)) {
      throw new CairnError(415, 'unsupported_media_type', `Send the export as ${NDJSON}`);
    }
    return this.importer.import(params.project, principal, body, query.onConflict);
  }
}
