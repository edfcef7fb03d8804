import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { SlugParamDto } from '@cairn/tenancy';
import { ZodResponse } from 'nestjs-zod';
import { ProjectsService } from '../projects.service';
import { CreateProjectDto, ProjectDto, ProjectListDto, toProjectDto } from './project.dto';

@ApiTags('tenant: projects')
@Controller('v1/tenants/:slug/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @RequirePermission('tenant.projects.manage')
  @Audited('project.create')
  @ApiOperation({ summary: 'Create a project in the tenant' })
  @ZodResponse({ status: 201, type: ProjectDto })
  async create(@Param() _params: SlugParamDto, @Body() body: CreateProjectDto) {
    return toProjectDto(await this.projects.create(body));
  }

  @Get()
  @RequirePermission('tenant.projects.read')
  @ApiOperation({ summary: 'List the projects the caller may read' })
  @ZodResponse({ status: 200, type: ProjectListDto })
  async list(@Param() _params: SlugParamDto, @CurrentPrincipal() principal: Principal) {
    const scope = principal.kind === 'platform' ? '*' : principal.projects;
    return { items: (await this.projects.list(scope)).map(toProjectDto) };
  }
}
