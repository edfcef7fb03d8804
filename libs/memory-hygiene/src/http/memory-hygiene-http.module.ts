import { Module } from '@nestjs/common';
import { MemoryHygieneModule } from '../memory-hygiene.module';
import { MemoryHygieneController } from './memory-hygiene.controller';

/** Decay, prune, restore, duplicates and merge over REST (`/v1/projects/{project}/memories…`). */
@Module({
  imports: [MemoryHygieneModule],
  controllers: [MemoryHygieneController],
})
export class MemoryHygieneHttpModule {}
