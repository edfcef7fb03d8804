export { ProjectsHttpModule } from './http/projects-http.module';
export { ProjectEntity } from './project.entity';
export { ProjectsModule } from './projects.module';
export { ProjectsService } from './projects.service';
