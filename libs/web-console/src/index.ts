export { WebConsoleHttpModule } from './http/web-console-http.module';
export { CONSOLE_PATH, CONSOLE_CSP_DIRECTIVES, consoleCacheControl, isConsoleAssetPath } from './console-policy';
