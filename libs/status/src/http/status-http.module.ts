import { Module } from '@nestjs/common';
import { StatusModule } from '../status.module';
import { StatusController } from './status.controller';

/** `GET /v1/status`; api app only. */
@Module({
  imports: [StatusModule],
  controllers: [StatusController],
})
export class StatusHttpModule {}
