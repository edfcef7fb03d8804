import { Module } from '@nestjs/common';
import { WorkingMemoryModule } from '../working-memory.module';
import { BriefingController } from './briefing.controller';
import { SessionController } from './session.controller';
import { WorkingMemoryController } from './working-memory.controller';

/** Working memory, session events and summaries, and the briefing over REST; api app only. */
@Module({
  imports: [WorkingMemoryModule],
  controllers: [WorkingMemoryController, SessionController, BriefingController],
})
export class WorkingMemoryHttpModule {}
