import { Module } from '@nestjs/common';
import { MemoryModule } from '@cairn/memory';
import { ProjectsModule } from '@cairn/projects';
import { SecretsModule } from '@cairn/secrets';
import { MemorySharing } from './memory-sharing.service';
import { SharingListings } from './sharing-listings.service';

/**
 * Sharing memories with a user or an agent, one memory or by a live tag rule; the HTTP and MCP
 * modules serve it. What a share allows elsewhere (a grantee's update) is memory's own rule.
 */
@Module({
  imports: [MemoryModule, ProjectsModule, SecretsModule],
  providers: [MemorySharing, SharingListings],
  exports: [MemorySharing, SharingListings],
})
export class MemorySharingModule {}
