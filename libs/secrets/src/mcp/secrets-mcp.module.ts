import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets.module';
import { SecretGetTool } from './secret-get.tool';

/** The `secrets` toolset of the MCP gateway (not a default toolset: a token must name it). */
@Module({ imports: [SecretsModule], providers: [SecretGetTool] })
export class SecretsMcpModule {}
