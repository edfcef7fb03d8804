import { Module } from '@nestjs/common';
import { GenerationModule } from '../generation.module';
import { GenerationRequestsController } from './generation-requests.controller';

/** The session-summarize and request-status routes; api app only. */
@Module({
  imports: [GenerationModule],
  controllers: [GenerationRequestsController],
})
export class GenerationHttpModule {}
