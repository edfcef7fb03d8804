import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { ConflictError, UnauthenticatedError } from '@cairn/common';
import { mapError } from './error-body';

describe('mapError', () => {
  it('keeps domain codes and statuses', () => {
    expect(mapError(new ConflictError('taken', 'tenant_exists'))).toMatchObject({
      status: 409,
      body: { error: { code: 'tenant_exists', message: 'taken' } },
      unexpected: false,
    });
  });

  it('adds an RFC 6750 challenge to 401s', () => {
    const mapped = mapError(new UnauthenticatedError('token_expired', 'Token has expired'));
    expect(mapped.headers?.['WWW-Authenticate']).toBe('Bearer realm="cairn", error="invalid_token"');
  });

  it('hides unexpected errors behind a generic 500', () => {
    const mapped = mapError(new Error('connect ECONNREFUSED /var/run/secret.sock at Object.<anonymous> (/app/x.js:1)'));
    expect(mapped).toMatchObject({ status: 500, unexpected: true });
    expect(JSON.stringify(mapped.body)).not.toContain('ECONNREFUSED');
    expect(mapError(new HttpException('db password wrong', 503)).body.error.message).toBe('Internal server error');
  });

  it('answers a database connection failure with a retryable 503, saying nothing of its cause', () => {
    const restart = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const wrapped = Object.assign(new Error('query failed: SELECT secret FROM t'), { driverError: restart });
    const mapped = mapError(wrapped);
    expect(mapped).toMatchObject({
      status: 503,
      headers: { 'Retry-After': '5' },
      body: { error: { code: 'unavailable' } },
      unexpected: false,
      transient: true,
    });
    expect(JSON.stringify(mapped.body)).not.toMatch(/administrator|SELECT/);
    // A query error on a live connection is still ours: 500.
    expect(mapError(Object.assign(new Error('syntax error'), { code: '42601' })).status).toBe(500);
  });

  it('maps framework errors to stable codes', () => {
    expect(mapError(new NotFoundException('Cannot GET /x')).body.error.code).toBe('not_found');
    expect(
      mapError(new BadRequestException("Body is not valid JSON but content-type is set to 'application/json'")).body
        .error.code,
    ).toBe('invalid_json');
  });
});
