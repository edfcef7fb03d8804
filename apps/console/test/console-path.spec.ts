import { consolePath } from '../src/console-path';

/** The "return to" after signing in (src/return-to.ts) only ever names a page of the console. */
describe('consolePath', () => {
  it('keeps route paths of the console', () => {
    for (const path of ['/oauth/consent/AbC_12-xyz', '/projects/web-app/memories/0b6c', '/account']) {
      expect(consolePath(path)).toBe(path);
    }
  });

  it('refuses anything that would leave the console or is no destination', () => {
    for (const value of [
      'https://evil.example/x',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      'oauth/consent/x',
      '/a/../sign-in',
      '/%2e%2e/x',
      '/account?next=//evil.example',
      '/account#x',
      '/',
      '/sign-in',
      '/reset-password',
      '',
      42,
      null,
      undefined,
    ]) {
      expect(consolePath(value)).toBeUndefined();
    }
  });
});
