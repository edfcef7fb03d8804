import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseProject, findRepositorySettings, slugOf } from './hook-project';

describe('which project a hook works in', () => {
  let root: string;
  let repo: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hook-project-'));
    repo = join(root, 'Billing_API');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('takes CAIRN_PROJECT, then .cairn.json, then the config file, then the git repository name', async () => {
    const cwd = join(repo, 'src', 'deep');
    expect(await chooseProject(undefined, undefined, undefined, cwd)).toEqual({
      slug: 'billing-api',
      source: 'git repository',
    });
    expect(await chooseProject(undefined, undefined, 'from-login', cwd)).toEqual({
      slug: 'from-login',
      source: 'config file',
    });
    writeFileSync(join(repo, '.cairn.json'), JSON.stringify({ project: 'payments', hooks: { PostToolUse: false } }));
    const settings = await findRepositorySettings(cwd);
    expect(settings).toEqual({ file: join(repo, '.cairn.json'), project: 'payments', hooks: { PostToolUse: false } });
    expect(await chooseProject(undefined, settings, 'from-login', cwd)).toEqual({
      slug: 'payments',
      source: '.cairn.json',
    });
    expect(await chooseProject(' from-env ', settings, 'from-login', cwd)).toEqual({
      slug: 'from-env',
      source: 'CAIRN_PROJECT',
    });
  });

  it('looks for .cairn.json no higher than the repository root, and names a broken one', async () => {
    writeFileSync(join(root, '.cairn.json'), JSON.stringify({ project: 'outside' }));
    expect(await findRepositorySettings(join(repo, 'src'))).toBeUndefined();
    writeFileSync(join(repo, '.cairn.json'), '{"project": ');
    await expect(findRepositorySettings(join(repo, 'src'))).rejects.toThrow(
      `${join(repo, '.cairn.json')} is not valid JSON`,
    );
    writeFileSync(join(repo, '.cairn.json'), JSON.stringify({ project: 'Not A Slug' }));
    await expect(findRepositorySettings(repo)).rejects.toThrow('"project" is not a project slug');
  });

  it('makes a slug of a directory name, or none', () => {
    expect(slugOf('Billing_API')).toBe('billing-api');
    expect(slugOf('2024-site')).toBe('site');
    expect(slugOf('ab')).toBeUndefined();
    expect(slugOf('日本語')).toBeUndefined();
    expect(slugOf('x'.repeat(60))).toHaveLength(40);
  });

  it('finds no project outside a repository with nothing configured', async () => {
    expect(await chooseProject(undefined, undefined, undefined, tmpdir())).toBeUndefined();
  });
});
