import { Module } from '@nestjs/common';
import { ExtractionModule } from '@cairn/extraction';
import { SafeFetchModule } from '@cairn/safe-fetch';
import { KbFetchRunner } from '../kb-fetch-runner.service';
import { KnowledgeModule } from '../knowledge.module';
import { KbFetchJobHandler } from './kb-fetch.job-handler';

/** The `knowledge/fetch` handler; worker app only (the worker pods are the ones with egress). */
@Module({
  imports: [KnowledgeModule, SafeFetchModule, ExtractionModule],
  providers: [KbFetchRunner, KbFetchJobHandler],
})
export class KnowledgeWorkerModule {}
