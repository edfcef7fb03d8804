import { Module } from '@nestjs/common';
import { CoordinationModule } from '../coordination.module';
import { BroadcastKeyController } from './broadcast-key.controller';
import { BroadcastsController } from './broadcasts.controller';

/** The coordination channel over REST; api app only. */
@Module({
  imports: [CoordinationModule],
  controllers: [BroadcastsController, BroadcastKeyController],
})
export class CoordinationHttpModule {}
