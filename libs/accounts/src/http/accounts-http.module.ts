import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts.module';
import { AccountsAdminController } from './accounts-admin.controller';
import { OidcController } from './oidc.controller';
import { PlatformAccountsController } from './platform-accounts.controller';
import { SessionController } from './session.controller';
import { SignInController } from './sign-in.controller';
import { TotpController } from './totp.controller';

/** Sign-in, browser sessions and account administration routes; api app only. */
@Module({
  imports: [AccountsModule],
  controllers: [
    SignInController,
    OidcController,
    SessionController,
    TotpController,
    PlatformAccountsController,
    AccountsAdminController,
  ],
})
export class AccountsHttpModule {}
