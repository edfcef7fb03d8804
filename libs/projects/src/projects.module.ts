import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectEntity } from './project.entity';
import { ProjectResolver } from './project-resolver.service';
import { ProjectVisits } from './project-visits.service';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

@Module({
  imports: [TypeOrmModule.forFeature([ProjectEntity])],
  providers: [ProjectResolver, ProjectVisits, ProjectsRepository, ProjectsService],
  exports: [ProjectResolver, ProjectVisits, ProjectsService],
})
export class ProjectsModule {}
