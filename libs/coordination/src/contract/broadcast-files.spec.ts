import { filePathProblem } from './broadcast-files';

describe('filePathProblem', () => {
  it.each(['src/billing/retry.ts', 'README.md', './docs/a.md', 'docs/a..b.md', 'a/.hidden/b', 'src/%41.ts', '100%.md'])(
    'takes the relative path %j',
    (path) => expect(filePathProblem(path)).toBeNull(),
  );

  it.each([
    ['/etc/passwd', 'absolute'],
    ['C:\\Windows\\win.ini', 'absolute'],
    ['C:relative-to-drive.txt', 'absolute'],
    ['\\\\server\\share\\x', 'absolute'],
    ['~/.ssh/id_rsa', 'absolute'],
    ['%2Fetc%2Fpasswd', 'absolute'],
    ['../secrets', '".."'],
    ['src/../../outside', '".."'],
    ['src\\..\\..\\outside', '".."'],
    ['..', '".."'],
    ['%2e%2e/%2e%2e/etc', '".."'],
    ['src/a.ts\u0000.png', 'control'],
    ['src/\u001b[31ma.ts', 'control'],
    ['src/a%00.ts', 'control'],
  ])('refuses %j (%s)', (path, problem) => {
    expect(filePathProblem(path)).toContain(problem);
  });
});
