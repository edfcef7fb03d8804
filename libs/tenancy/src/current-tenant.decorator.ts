import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { MissingTenantContextError } from '@cairn/common';
import { type FastifyRequest } from 'fastify';
import { type TenantRef } from './tenant-ref';

/** The tenant the access guard resolved for this request; throws rather than fall back to "all". */
export const CurrentTenant = createParamDecorator((_data: unknown, context: ExecutionContext): TenantRef => {
  const tenant = context.switchToHttp().getRequest<FastifyRequest>().tenant;
  if (!tenant) throw new MissingTenantContextError('CurrentTenant');
  return tenant;
});
