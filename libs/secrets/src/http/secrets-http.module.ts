import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets.module';
import { DataKeyController } from './data-key.controller';
import { SecretsController } from './secrets.controller';

/** `GET /v1/projects/{project}/secrets/{id}` and `/v1/tenants/{slug}/data-key`; the api app mounts it. */
@Module({ imports: [SecretsModule], controllers: [SecretsController, DataKeyController] })
export class SecretsHttpModule {}
