import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets.module';
import { SecretsController } from './secrets.controller';

/** `GET /v1/projects/{project}/secrets/{id}`; the api app mounts it. */
@Module({ imports: [SecretsModule], controllers: [SecretsController] })
export class SecretsHttpModule {}
