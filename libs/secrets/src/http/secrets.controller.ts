import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { SecretDto, SecretParamsDto, toSecretView } from '../contract/secret.dto';
import { SecretVault } from '../secret-vault.service';

@ApiTags('secrets')
@Controller('v1/projects/:project/secrets')
export class SecretsController {
  constructor(private readonly vault: SecretVault) {}

  @Get(':id')
  @RequirePermission('memory.read')
  @Audited('secret.read')
  @ApiOperation({
    summary: 'The original behind a [SECRET:type:id] placeholder',
    description: 'For its writer (same user, agent or token) or a tenant admin; 404 for everyone else.',
  })
  @ZodResponse({ status: 200, type: SecretDto })
  async get(@Param() params: SecretParamsDto, @CurrentPrincipal() principal: SessionPrincipal) {
    return toSecretView(await this.vault.reveal(params.project, principal, params.id));
  }
}
