export { ProjectsHttpModule } from './http/projects-http.module';
export { ProjectEntity } from './project.entity';
export { type ProjectRef, ProjectResolver } from './project-resolver.service';
export { ProjectVisits } from './project-visits.service';
export { ProjectsModule } from './projects.module';
export { ProjectsService } from './projects.service';
