import { Module } from '@nestjs/common';
import { TermStatisticsFoldJobHandler } from './term-statistics.job-handler';

/** The search library's background work, for the worker app only. */
@Module({ providers: [TermStatisticsFoldJobHandler] })
export class SearchWorkerModule {}
