import { Module } from '@nestjs/common';
import { ProjectsModule } from '@cairn/projects';
import { SafeFetchModule } from '@cairn/safe-fetch';
import { OAuthAccessTokens } from './oauth-access-tokens.service';
import { OAuthConsent } from './oauth-consent.service';
import { OAuthGrantsRepository } from './oauth-grants.repository';
import { OAuthGrants } from './oauth-grants.service';
import { OAuthProvider } from './oauth-provider.service';
import { OAuthRecordsRepository } from './oauth-records.repository';

/** Cairn's OAuth authorization server: the provider, consent and grants (the api). */
@Module({
  imports: [ProjectsModule, SafeFetchModule],
  providers: [OAuthRecordsRepository, OAuthGrantsRepository, OAuthProvider, OAuthConsent, OAuthGrants],
  exports: [OAuthProvider, OAuthConsent, OAuthGrants, OAuthRecordsRepository],
})
export class OAuthModule {}

/** The gateway's half: accepting the server's access tokens beside session tokens. */
@Module({
  providers: [OAuthRecordsRepository, OAuthGrantsRepository, OAuthAccessTokens],
})
export class OAuthTokensModule {}
