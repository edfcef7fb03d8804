import { Module } from '@nestjs/common';
import { MemoryModule } from '@cairn/memory';
import { ProjectsModule } from '@cairn/projects';
import { SecretsModule } from '@cairn/secrets';
import { MemoryChanges } from './memory-changes.service';
import { MemoryExporter } from './memory-export.service';
import { MemoryImporter } from './memory-import.service';

/**
 * Memory sync: the change feed (memories changed since a cursor) and export/import as JSON
 * Lines. Builds on @cairn/memory's row and rules; the HTTP modules serve it.
 */
@Module({
  imports: [MemoryModule, ProjectsModule, SecretsModule],
  providers: [MemoryChanges, MemoryExporter, MemoryImporter],
  exports: [MemoryChanges, MemoryExporter, MemoryImporter],
})
export class MemorySyncModule {}
