import { Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { ZodValidationPipe } from 'nestjs-zod';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { RequestContextInterceptor } from './request-context.interceptor';

/** The global filter, validation pipe and request-context interceptor every HTTP app uses. */
@Module({
  providers: [
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_PIPE, useClass: ZodValidationPipe },
    { provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor },
  ],
})
export class ServerModule {}
