import { detectContradiction } from './contradiction-detector';

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
});
