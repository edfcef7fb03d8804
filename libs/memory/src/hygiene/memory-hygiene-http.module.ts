import { Module } from '@nestjs/common';
import { MemoryModule } from '../memory.module';
import { MemoryHygieneController } from './memory-hygiene.controller';

/** Decay, prune, restore, duplicates and merge over REST. */
@Module({
  imports: [MemoryModule],
  controllers: [MemoryHygieneController],
})
export class MemoryHygieneHttpModule {}
