import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets.module';
import { DataKeyResealJobHandler } from './data-key-reseal.job-handler';

/** The secrets library's job handlers, for the worker app: the data-key re-encryption sweep. */
@Module({ imports: [SecretsModule], providers: [DataKeyResealJobHandler] })
export class SecretsWorkerModule {}
