import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BadRequestError } from '@cairn/common';
import { type FastifyReply } from 'fastify';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { MemoryReader } from '../memory-reader.service';
import { viewerOf } from '../memory-access';
import { MemoryWriter, type WriteResult } from '../memory-writer.service';
import { ListMemoriesQueryDto, MemoryPageDto, toListFilter } from '../contract/memory-query.dto';
import {
  DeleteMemoryQueryDto,
  MemoryDto,
  MemoryParamsDto,
  ProjectParamDto,
  StoreMemoryDto,
  toMemoryView,
  UpdateMemoryDto,
  WriteResultDto,
  idempotencyKeySchema,
} from '../contract/memory.dto';

const toWriteView = ({ replayed: _replayed, ...result }: WriteResult) => ({
  ...result,
  memory: toMemoryView(result.memory),
});

@ApiTags('memories')
@Controller('v1/projects/:project/memories')
export class MemoriesController {
  constructor(
    private readonly writer: MemoryWriter,
    private readonly reader: MemoryReader,
  ) {}

  @Post()
  @RequirePermission('memory.write')
  @ApiOperation({ summary: 'Store a memory; warns about memories it contradicts' })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Repeat a store safely: a repeat with the same key (same token and project, within 24 h) answers the ' +
      'memory the first one stored, with Idempotency-Replayed: true; another body under the same key is a 409',
  })
  @ZodResponse({ status: 201, type: WriteResultDto })
  async store(
    @Param() params: ProjectParamDto,
    @Body() body: StoreMemoryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
    @Headers('idempotency-key') rawKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const key = rawKey === undefined ? undefined : idempotencyKeySchema.safeParse(rawKey);
    if (key && !key.success) {
      throw new BadRequestError(
        'Idempotency-Key: 1 to 200 printable ASCII characters without spaces',
        undefined,
        'invalid_idempotency_key',
      );
    }
    const result = await this.writer.store(params.project, principal, body, key?.data);
    if (result.replayed) void reply.header('Idempotency-Replayed', 'true');
    return toWriteView(result);
  }

  @Get()
  @RequirePermission('memory.read')
  @ApiOperation({ summary: 'List memories, newest first, with filters and cursor pagination' })
  @ZodResponse({ status: 200, type: MemoryPageDto })
  async list(
    @Param() params: ProjectParamDto,
    @Query() query: ListMemoriesQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const viewer = viewerOf(principal);
    const page = await this.reader.list(params.project, viewer, toListFilter(query), query.limit, query.cursor);
    return { items: page.items.map(toMemoryView), nextCursor: page.nextCursor };
  }

  @Get(':id')
  @RequirePermission('memory.read')
  @ApiOperation({ summary: 'Get one memory' })
  @ZodResponse({ status: 200, type: MemoryDto })
  async get(@Param() params: MemoryParamsDto, @CurrentPrincipal() principal: SessionPrincipal) {
    return toMemoryView(await this.reader.get(params.project, viewerOf(principal), params.id));
  }

  @Patch(':id')
  @RequirePermission('memory.write')
  @ApiOperation({
    summary: 'Update a memory (author, maintainer or write-share grantee); the previous version is kept',
  })
  @ZodResponse({ status: 200, type: WriteResultDto })
  async update(
    @Param() params: MemoryParamsDto,
    @Body() body: UpdateMemoryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    return toWriteView(await this.writer.update(params.project, principal, params.id, body));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('memory.write')
  @ApiOperation({ summary: 'Soft-delete a memory (its author or an admin; never a share grantee)' })
  async remove(
    @Param() params: MemoryParamsDto,
    @Query() query: DeleteMemoryQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ): Promise<void> {
    await this.writer.delete(params.project, principal, params.id, query.expectedVersion);
  }
}
