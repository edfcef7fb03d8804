import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { BadRequestError, slugSchema } from '@cairn/common';
import { McpResource, type McpResourceHandler, type ResourceContents } from '@cairn/mcp';
import { ProjectsService } from '@cairn/projects';
import { BriefingService } from '../briefing.service';
import { compactBriefing } from '../briefing-compact';

/** resources/list advertises at most this many briefings; a `*` token may see many projects. */
const LISTED_MAX = 50;

const briefingUri = (project: string) => `cairn://projects/${encodeURIComponent(project)}/briefing`;

/**
 * The session briefing as an attachable resource: the same service and rendering as
 * recall_context, for clients that offer resources to their user rather than calling tools.
 */
@Injectable()
@McpResource({
  name: 'project-briefing',
  title: 'Project briefing',
  uriTemplate: 'cairn://projects/{project}/briefing',
  description:
    'The session briefing of a project (what changed since your last visit, your working memory, the last ' +
    'session summary, recent events), as recall_context returns it. Reading it records your visit.',
  mimeType: 'text/plain',
  permission: 'context.read',
})
export class BriefingResource implements McpResourceHandler {
  constructor(
    private readonly projects: ProjectsService,
    private readonly briefings: BriefingService,
  ) {}

  async list(principal: SessionPrincipal) {
    // Only projects that exist in the caller's tenant and lie within the token's scope.
    const projects = (await this.projects.list(principal.projects)).slice(0, LISTED_MAX);
    return projects.map((project) => ({
      uri: briefingUri(project.slug),
      name: `briefing-${project.slug}`,
      title: `Briefing: ${project.name}`,
    }));
  }

  async read(params: Record<string, string>, principal: SessionPrincipal): Promise<ResourceContents> {
    const project = slugSchema.safeParse(params.project);
    if (!project.success) throw new BadRequestError('Not a project slug', undefined, 'bad_project');
    // BriefingService refuses a project outside the token's scope (project_forbidden).
    const { text: _markdown, ...briefing } = await this.briefings.context(project.data, principal);
    return { uri: briefingUri(project.data), mimeType: 'text/plain', text: compactBriefing(briefing) };
  }
}
