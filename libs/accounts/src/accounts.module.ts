import { Module } from '@nestjs/common';
import { EncryptionModule } from '@cairn/encryption';
import { TenancyModule } from '@cairn/tenancy';
import { AccountsRepository } from './accounts.repository';
import { BrowserSessionsRepository } from './browser-sessions.repository';
import { BrowserSessions } from './browser-sessions.service';
import { LoginThrottle } from './login-throttle.service';
import { OidcAccounts } from './oidc-accounts.service';
import { OidcAttempts } from './oidc-attempts.service';
import { OidcIdentitiesRepository } from './oidc-identities.repository';
import { OidcProviders } from './oidc-providers.service';
import { OidcSignIn } from './oidc-sign-in.service';
import { PasswordLinksRepository } from './password-links.repository';
import { PasswordLinks } from './password-links.service';
import { Passwords } from './passwords.service';
import { PlatformAccounts } from './platform-accounts.service';
import { SessionViews } from './session-views.service';
import { SignIn } from './sign-in.service';
import { TotpFactor } from './totp.service';

/**
 * People: accounts (local passwords, TOTP, sign-in through OIDC identity providers),
 * server-side browser sessions and password links (docs/sign-in.md). Loading it makes the access guard accept the session cookie (BrowserSessions
 * registers with @cairn/auth's BrowserSessionGate); only the api loads it.
 */
@Module({
  imports: [EncryptionModule, TenancyModule],
  providers: [
    AccountsRepository,
    BrowserSessionsRepository,
    BrowserSessions,
    LoginThrottle,
    OidcAccounts,
    OidcAttempts,
    OidcIdentitiesRepository,
    OidcProviders,
    OidcSignIn,
    PasswordLinksRepository,
    PasswordLinks,
    Passwords,
    PlatformAccounts,
    SessionViews,
    SignIn,
    TotpFactor,
  ],
  exports: [
    BrowserSessions,
    OidcAttempts,
    OidcProviders,
    OidcSignIn,
    PasswordLinks,
    PlatformAccounts,
    SessionViews,
    SignIn,
    TotpFactor,
  ],
})
export class AccountsModule {}
