import { type Command } from 'commander';
import { type ContextFactory } from '../../cli-context';
import { readConfigFile, writeConfigFile } from '../../settings/config-file';

interface LogoutOptions {
  readonly all?: boolean;
}

/**
 * `cairn logout`: forgets the session token (and the admin token, and the OAuth client and
 * tokens of `cairn login --oauth`) kept for the configured server, in the file and in the OS
 * keychain; `--all` forgets the server and default project too. The server still honours a token
 * until it is revoked (`cairn admin tokens revoke`; an OAuth grant in the console).
 */
export function registerLogout(program: Command, context: ContextFactory): void {
  program
    .command('logout')
    .description('forget the kept token(s) for the configured server (file and OS keychain)')
    .option('--all', 'also forget the server URL and default project')
    .action(async (options: LogoutOptions, command: Command) => {
      const ctx = context(command);
      const file = await readConfigFile(ctx.paths.configFile);
      const url = file.url;
      const removed: string[] = [];
      if (file.token) removed.push('token (file)');
      if (file.adminToken) removed.push('admin token (file)');
      if (file.oauth) removed.push(`OAuth tokens (${file.oauth.inKeychain ? 'keychain' : 'file'})`);
      if (url && ctx.io.keychain) {
        if (await ctx.io.keychain.deleteToken(url, 'token')) removed.push('token (keychain)');
        if (await ctx.io.keychain.deleteToken(url, 'adminToken')) removed.push('admin token (keychain)');
      }
      if (file.oauth?.inKeychain) await ctx.io.keychain?.deleteToken(file.oauth.mcpUrl, 'oauth');
      const { token: _token, adminToken: _admin, oauth: _oauth, ...rest } = file;
      const kept = options.all ? { version: file.version } : rest;
      await writeConfigFile(ctx.paths.configFile, kept);
      ctx.output.result(
        { removed, server: options.all ? null : (url ?? null), configFile: ctx.paths.configFile },
        (view) =>
          view.removed.length > 0
            ? `Forgot ${view.removed.join(', ')}.${view.server ? ` Server ${view.server} stays configured.` : ''}\n` +
              'The server accepts the token until it expires or an admin revokes it.'
            : 'No kept token to forget.',
      );
    });
}
