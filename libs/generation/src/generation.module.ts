import { Module } from '@nestjs/common';
import { ProjectsModule } from '@cairn/projects';
import { SecretsModule } from '@cairn/secrets';
import { GenerationJobRunner } from './generation-job-runner.service';
import { GenerationRequestsRepository } from './generation-requests.repository';
import { GenerationRequests } from './generation-requests.service';

/**
 * Generation requests (session summaries, fact extractions) and the run of their jobs:
 * services only, for every app that accepts or runs them. The features that produce the
 * results (summaries, extraction) import this module; the model itself is `GENERATOR`
 * (ProvidersModule, global).
 */
@Module({
  imports: [ProjectsModule, SecretsModule],
  providers: [GenerationRequestsRepository, GenerationRequests, GenerationJobRunner],
  exports: [GenerationRequests, GenerationJobRunner],
})
export class GenerationModule {}
