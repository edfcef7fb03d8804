import { Module } from '@nestjs/common';
import { TenantsController } from './tenants.controller';

/** Platform tenant administration (`/v1/tenants`); mounted by the api app only. */
@Module({ controllers: [TenantsController] })
export class TenancyHttpModule {}
