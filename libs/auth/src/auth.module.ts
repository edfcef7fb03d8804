import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '@cairn/projects';
import { AccessGuard } from './access.guard';
import { AuthChangeListener } from './auth-change-listener.service';
import { AuthChangeNoticesRepository } from './auth-change-notices.repository';
import { BearerSchemes } from './bearer-schemes.service';
import { BrowserSessionGate } from './browser-session-gate.service';
import { ExternalTokenVerifier } from './external-token-verifier.service';
import { RateLimits } from './rate-limits.service';
import { SessionTokenEntity } from './session-token.entity';
import { TenantAccessRevocation } from './tenant-access-revocation.service';
import { TokenVerifier } from './token-verifier.service';
import { TokenLookups } from './token-lookups.service';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';
import { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** Identity: users, session tokens, verification, request budgets and the global access guard. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, SessionTokenEntity]), ProjectsModule],
  providers: [
    { provide: APP_GUARD, useClass: AccessGuard },
    AuthChangeListener,
    AuthChangeNoticesRepository,
    BearerSchemes,
    BrowserSessionGate,
    ExternalTokenVerifier,
    RateLimits,
    TenantAccessRevocation,
    TokenVerifier,
    TokenLookups,
    TokensRepository,
    TokensService,
    UsersRepository,
    UsersService,
  ],
  exports: [BearerSchemes, BrowserSessionGate, RateLimits, TokenVerifier, TokensService, UsersService],
})
export class AuthModule {}
