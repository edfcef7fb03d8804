import { Module } from '@nestjs/common';
import { CodeIndexModule } from '../code-index.module';
import { CodeIndexController } from './code-index.controller';

/** Code-index REST routes; api app only. */
@Module({ imports: [CodeIndexModule], controllers: [CodeIndexController] })
export class CodeIndexHttpModule {}
