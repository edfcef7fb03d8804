import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import { mapError } from '@cairn/server';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { OidcAttempts } from '../oidc-attempts.service';

/** The console page that explains a refused sign-in by its code. */
export const SIGN_IN_PAGE = '/console/sign-in';

/**
 * The OIDC routes are browser navigations, not API calls: a refusal sends the person back to
 * the console's sign-in page with the error's code (`?error=sign_in_failed`), which it explains,
 * instead of showing an error body. The audit interceptor has recorded the refusal by then, and
 * the attempt's cookie goes (a new sign-in starts afresh).
 */
@Catch()
export class OidcRedirectFilter implements ExceptionFilter {
  private readonly logger = new Logger('OidcSignIn');

  constructor(private readonly attempts: OidcAttempts) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const mapped = mapError(error);
    if (mapped.unexpected) {
      this.logger.error({ msg: 'OIDC sign-in failed unexpectedly', correlationId: request.id, err: error });
    }
    void reply
      .status(303)
      .header('location', `${SIGN_IN_PAGE}?error=${encodeURIComponent(mapped.body.error.code)}`)
      .header('set-cookie', this.attempts.clearCookie())
      .header('cache-control', 'no-store')
      .send();
  }
}
