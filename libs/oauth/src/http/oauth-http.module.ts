import { Module } from '@nestjs/common';
import { OAuthModule } from '../oauth.module';
import { OAuthSweeper } from '../oauth-sweeper.service';
import { OAuthRoutes } from './oauth-routes.service';
import { OwnOAuthGrantsController, TenantOAuthGrantsController } from './oauth-grants.controller';
import { OAuthInteractionsController } from './oauth-interactions.controller';

/** The authorization server's endpoints (when OAUTH_ENABLED), the consent routes and the grants. */
@Module({
  imports: [OAuthModule],
  controllers: [OAuthInteractionsController, OwnOAuthGrantsController, TenantOAuthGrantsController],
  providers: [OAuthRoutes, OAuthSweeper],
})
export class OAuthHttpModule {}
