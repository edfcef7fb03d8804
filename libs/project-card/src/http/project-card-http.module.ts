import { Module } from '@nestjs/common';
import { ProjectCardModule } from '../project-card.module';
import { ProjectCardController } from './project-card.controller';

/** The project card's routes; api app only. */
@Module({
  imports: [ProjectCardModule],
  controllers: [ProjectCardController],
})
export class ProjectCardHttpModule {}
