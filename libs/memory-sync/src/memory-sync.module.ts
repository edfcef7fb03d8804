import { Module } from '@nestjs/common';
import { ProjectsModule } from '@cairn/projects';
import { SecretsModule } from '@cairn/secrets';
import { MemoryChangesRepository } from './memory-changes.repository';
import { MemoryChanges } from './memory-changes.service';
import { MemoryExporter } from './memory-export.service';
import { MemoryImporter } from './memory-import.service';
import { MemoryTransferRepository } from './memory-transfer.repository';

/**
 * Memory sync: the change feed (memories changed since a cursor) and export/import as JSON
 * Lines. Builds on @cairn/memory's row and rules; the HTTP modules serve it.
 */
@Module({
  imports: [ProjectsModule, SecretsModule],
  providers: [MemoryChanges, MemoryChangesRepository, MemoryExporter, MemoryImporter, MemoryTransferRepository],
  exports: [MemoryChanges, MemoryExporter, MemoryImporter],
})
export class MemorySyncModule {}
