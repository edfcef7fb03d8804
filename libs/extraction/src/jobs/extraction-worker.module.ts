import { Module } from '@nestjs/common';
import { GenerationModule } from '@cairn/generation';
import { MemoryModule } from '@cairn/memory';
import { ExtractionModule } from '../extraction.module';
import { ExtractFactsJobHandler } from './extract-facts.job-handler';

/** The `extract-facts` handler, registered on init; worker app only. Runs through GenerationModule's job runner. */
@Module({
  imports: [ExtractionModule, GenerationModule, MemoryModule],
  providers: [ExtractFactsJobHandler],
})
export class ExtractionWorkerModule {}
