import { Module } from '@nestjs/common';
import { MemorySharingModule } from '../memory-sharing.module';
import { MemorySharingController } from './memory-sharing.controller';

/** Sharing over REST (`/v1/projects/{project}/memories/{id}/shares`, `…/share-rules`, `…/shares`, `…/shared-with-me`). */
@Module({
  imports: [MemorySharingModule],
  controllers: [MemorySharingController],
})
export class MemorySharingHttpModule {}
