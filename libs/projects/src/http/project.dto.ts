import { displayText, slugSchema } from '@cairn/common';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { type ProjectEntity } from '../project.entity';

export const createProjectSchema = z.strictObject({
  slug: slugSchema.describe('URL-safe project identifier, unique in the tenant, e.g. "web-app"'),
  name: displayText(200).describe('Display name'),
});
export class CreateProjectDto extends createZodDto(createProjectSchema) {}

export const projectSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  lastSeenAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export class ProjectDto extends createZodDto(projectSchema) {}

export const projectListSchema = z.object({ items: z.array(projectSchema) });
export class ProjectListDto extends createZodDto(projectListSchema) {}

export function toProjectDto(project: ProjectEntity): z.infer<typeof projectSchema> {
  return {
    id: project.id,
    slug: project.slug,
    name: project.name,
    lastSeenAt: project.lastSeenAt?.toISOString() ?? null,
    createdAt: project.createdAt.toISOString(),
  };
}
