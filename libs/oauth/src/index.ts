export { OAuthHttpModule } from './http/oauth-http.module';
export { OAuthModule, OAuthTokensModule } from './oauth.module';
export { MCP_SCOPE, OAUTH_FETCH_TRUSTED_ADDRESSES, OAUTH_PATH } from './oauth-provider.service';
