import { Module } from '@nestjs/common';
import { QueueAdmin } from '../queue-admin.service';
import { QueueAdminController } from './queue-admin.controller';

/** Queue overview, failed jobs and retries over REST; the api app mounts it. */
@Module({ controllers: [QueueAdminController], providers: [QueueAdmin] })
export class JobsHttpModule {}
