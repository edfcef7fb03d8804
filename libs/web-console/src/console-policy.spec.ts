import { consoleCacheControl, isConsoleAssetPath } from './console-policy';

describe('the console cache policy', () => {
  it('keeps hashed assets for a year and revalidates everything else', () => {
    expect(isConsoleAssetPath('assets/index-BXk2a9.js')).toBe(true);
    expect(isConsoleAssetPath('/assets/index-BXk2a9.css')).toBe(true);
    expect(consoleCacheControl('assets/index-BXk2a9.js')).toBe('public, max-age=31536000, immutable');
    expect(consoleCacheControl('index.html')).toBe('no-cache');
    expect(consoleCacheControl('favicon.svg')).toBe('no-cache');
    expect(isConsoleAssetPath('assets/nested/x.js')).toBe(false);
  });
});
