import { Module } from '@nestjs/common';
import { MemoryModule } from '@cairn/memory';
import { ProjectsModule } from '@cairn/projects';
import { SecretsModule } from '@cairn/secrets';
import { DuplicateFinder } from './duplicate-finder.service';
import { DuplicateScanRepository } from './duplicate-scan.repository';
import { MemoryHygiene } from './memory-hygiene.service';
import { MemoryMerger } from './memory-merge.service';

/**
 * Memory hygiene: confidence decay, pruning and restore, duplicate candidates and merging.
 * Builds on @cairn/memory (its records, rules and contract); the HTTP and MCP modules serve it,
 * the maintenance jobs call it.
 */
@Module({
  imports: [MemoryModule, ProjectsModule, SecretsModule],
  providers: [MemoryHygiene, DuplicateScanRepository, DuplicateFinder, MemoryMerger],
  exports: [MemoryHygiene, MemoryMerger],
})
export class MemoryHygieneModule {}
