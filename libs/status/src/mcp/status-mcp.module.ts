import { Module } from '@nestjs/common';
import { StatusModule } from '../status.module';
import { StatusTool } from './status.tool';

/** The `status` tool (who the token is, whether search is hybrid or keyword-only and why, the embedding model, the server version). */
@Module({
  imports: [StatusModule],
  providers: [StatusTool],
})
export class StatusMcpModule {}
