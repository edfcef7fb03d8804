export { AccountsModule } from './accounts.module';
export { AccountsHttpModule } from './http/accounts-http.module';
export {
  BrowserSessions,
  type SessionClient,
  type SessionSubject,
  type StartedSession,
} from './browser-sessions.service';
export { type SessionView, sessionViewSchema } from './contract/session.dto';
