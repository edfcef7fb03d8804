export { AllExceptionsFilter, sendError } from './all-exceptions.filter';
export { createHttpApp, type HttpAppOptions } from './create-http-app';
export { type ErrorBody, mapError } from './error-body';
export { type MainOptions, runMain } from './main-helpers';
export { runHttpApp } from './run-http-app';
export { ServerModule } from './server.module';
