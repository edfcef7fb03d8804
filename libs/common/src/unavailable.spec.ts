import { isConnectionFailure, ServiceUnavailableError } from './unavailable';

/** Which database errors a client may retry (503) and which stay errors of ours (500) or theirs (400). */
describe('isConnectionFailure', () => {
  const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it.each([
    ['57P01 admin shutdown (a restart)', pgError('57P01', 'terminating connection due to administrator command')],
    ['57P03 cannot connect now (starting up)', pgError('57P03', 'the database system is starting up')],
    ['08006 connection failure', pgError('08006')],
    ['ECONNREFUSED', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['ECONNRESET', pgError('ECONNRESET', 'read ECONNRESET')],
    ['a connection that dropped under a query', new Error('Connection terminated unexpectedly')],
    ['the pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['TypeORM wrapping the driver error', Object.assign(new Error('query failed'), { driverError: pgError('57P01') })],
    ['a cause chain', new Error('outer', { cause: pgError('ECONNREFUSED') })],
    [
      "a transaction's next statement after its connection dropped (TypeORM)",
      Object.defineProperty(new Error('Database connection provided by a query runner was already released'), 'name', {
        value: 'QueryRunnerProviderAlreadyReleasedError',
      }),
    ],
    [
      'COMMIT after the server ended the idle transaction (TypeORM, during pg_ctl stop)',
      Object.defineProperty(new Error('Query runner already released. Cannot run queries anymore.'), 'name', {
        value: 'QueryRunnerAlreadyReleasedError',
      }),
    ],
    ['every address refused', new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')], 'refused')],
  ])('retryable: %s', (_name, error) => {
    expect(isConnectionFailure(error)).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('23505', 'duplicate key value')],
    ['a syntax error (our bug)', pgError('42601')],
    ['the statement timeout', pgError('57014', 'canceling statement due to statement timeout')],
    ['a plain error', new Error('boom')],
    ['a string', 'ECONNREFUSED'],
    ['undefined', undefined],
  ])('not retryable: %s', (_name, error) => {
    expect(isConnectionFailure(error)).toBe(false);
  });

  it('stops on a cause cycle', () => {
    const error = new Error('loop') as Error & { cause?: unknown };
    error.cause = error;
    expect(isConnectionFailure(error)).toBe(false);
  });

  it('answers 503 with Retry-After', () => {
    const error = new ServiceUnavailableError('down', 7);
    expect(error).toMatchObject({ status: 503, code: 'unavailable', headers: { 'Retry-After': '7' } });
  });
});
