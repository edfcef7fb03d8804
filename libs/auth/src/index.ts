export { AccessGuard } from './access.guard';
export { AuthChangeListener } from './auth-change-listener.service';
export { AuthHttpModule } from './http/auth-http.module';
export { AuthModule } from './auth.module';
export { type BearerScheme, BearerSchemes } from './bearer-schemes.service';
export {
  type BrowserAuthentication,
  type BrowserSessionAuthenticator,
  BrowserSessionGate,
} from './browser-session-gate.service';
export { type RateLimitRefusal, RateLimits } from './rate-limits.service';
export { generateSessionToken, hashToken, isWellFormedSessionToken, SESSION_TOKEN_PREFIX } from './token-format';
export { TokenVerifier } from './token-verifier.service';
export { TokensService } from './tokens.service';
export { UsersService } from './users.service';
