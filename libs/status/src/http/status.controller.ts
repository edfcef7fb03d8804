import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { ServiceStatusDto } from '../contract/status.view';
import { StatusReport } from '../status-report.service';

@ApiTags('auth')
@Controller('v1/status')
export class StatusController {
  constructor(private readonly status: StatusReport) {}

  @Get()
  @RequirePermission('auth.whoami')
  @ApiOperation({
    summary: 'The status tool over REST: the token, search mode and embedding model, server version, MCP endpoint',
    description:
      'What `status` answers on MCP (who the token is, whether search is hybrid or keyword-only and why, ' +
      'the embedding model, the server version), plus `mcp`: the endpoint agents connect to (from ' +
      'MCP_PUBLIC_URL) and the gateway port, so a client given only the API URL can find it.',
  })
  @ZodResponse({ status: 200, type: ServiceStatusDto })
  read(@CurrentPrincipal() principal: Principal) {
    return this.status.read(principal);
  }
}
