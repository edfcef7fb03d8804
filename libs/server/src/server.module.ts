import { Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { ZodSerializerInterceptor, ZodValidationPipe } from 'nestjs-zod';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { RequestContextInterceptor } from './request-context.interceptor';

/** The global filter, validation pipe, response serializer and request context every HTTP app uses. */
@Module({
  providers: [
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_PIPE, useClass: ZodValidationPipe },
    { provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor },
    // Responses are parsed through their declared schema: undeclared fields never leave.
    { provide: APP_INTERCEPTOR, useClass: ZodSerializerInterceptor },
  ],
})
export class ServerModule {}
