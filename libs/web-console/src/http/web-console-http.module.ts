import { Module } from '@nestjs/common';
import { WebConsoleRoutes } from './web-console-routes.service';

/**
 * The web console (apps/console, built by `npm run build` into dist/console) under /console, with
 * a strict Content-Security-Policy and helmet's other headers on its responses only. Api app only.
 */
@Module({ providers: [WebConsoleRoutes] })
export class WebConsoleHttpModule {}
