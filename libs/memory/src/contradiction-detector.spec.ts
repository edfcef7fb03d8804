import { detectContradiction, prepareStatement } from './contradiction-detector';

describe('detectContradiction', () => {
  it.each([
    ['The API listens on port 8080', 'The API listens on port 9090', 'strong'],
    ['api_port: 8080', 'api_port: 9090', 'strong'],
    [
      'Feature flag new-checkout is enabled in production',
      'Feature flag new-checkout is disabled in production',
      'strong',
    ],
    ['We deploy on Fridays', "We don't deploy on Fridays", 'strong'],
    ['Strict mode is true for the TypeScript build', 'Strict mode is false for the TypeScript build', 'strong'],
    ['The primary database is PostgreSQL', 'The primary database is MySQL', 'strong'],
    ['Alice prefers tabs for indentation', 'Alice prefers spaces for indentation', 'strong'],
    [
      'Deploy window is Tuesday at 14:00 UTC and the on-call owner is Alice',
      'Deploy window is Tuesday at 14:00 UTC and the on-call owner is Bob',
      'strong',
    ],
    [
      'Embeddings endpoint defaults to http://ollama:11434',
      'Embeddings endpoint defaults to http://tei:8080',
      'strong',
    ],
  ])('flags %p against %p', (a, b, strength) => {
    expect(detectContradiction(a, b)).toMatchObject({ strength });
  });

  it.each([
    ['The API listens on port 8080', 'The billing worker retries three times'],
    ['We deploy on Fridays', 'We deploy on Fridays after the standup'],
    ['Redis is used for queues', 'Redis is used for queues and rate limits'],
    ['Use pnpm for the frontend', 'The frontend build takes 40 seconds'],
    ['', 'anything'],
    ['Postgres is reliable under load', 'Postgres is fast under load'],
  ])('leaves %p and %p alone', (a, b) => {
    expect(detectContradiction(a, b)).toBeNull();
  });

  it('names the setting that differs, reading keys back from their operators', () => {
    expect(detectContradiction('Mode: fast, retries = 3, timeout set to 30s', 'timeout set to 60s')).toMatchObject({
      reason: 'different value for "timeout": "30s" vs "60s"',
    });
    // Operators with no key before them ("::1") are skipped without losing the key that follows.
    expect(detectContradiction('IPv6 ranges: ::1, fe80::/10, ::ffff:127.x.x.x', 'ffff: 10.x.x.x')).toMatchObject({
      strength: 'strong',
    });
  });

  it('judges a prepared statement the same as its text', () => {
    const statement = prepareStatement('The API listens on port 8080');
    expect(detectContradiction(statement, 'The API listens on port 9090')).toEqual(
      detectContradiction('The API listens on port 8080', 'The API listens on port 9090'),
    );
  });
});
