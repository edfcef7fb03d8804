import { Module } from '@nestjs/common';
import { AuthModule } from '../auth.module';
import { AuthController } from './auth.controller';
import { TokensController } from './tokens.controller';
import { UsersController } from './users.controller';

/** Tenant users and tokens administration, introspection and whoami; api app only. */
@Module({ imports: [AuthModule], controllers: [AuthController, TokensController, UsersController] })
export class AuthHttpModule {}
