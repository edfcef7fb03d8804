import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';
import { CliError, ExitCode } from '../../cli-error';
import { readConfigFile, writeConfigFile } from '../../settings/config-file';
import { promptHidden } from '../../settings/prompt';
import { parseServerUrl } from '../../settings/settings';
import { loginWithOAuth } from './oauth-login';

interface LoginOptions {
  readonly keychain?: boolean;
  readonly oauth?: boolean;
  readonly scope?: string;
}

/**
 * `cairn login --url <server> [--token …] [--project …] [--keychain]`: checks the token against
 * the server (`GET /v1/whoami`, and the project against the projects it may read) before
 * keeping anything, then keeps server, token and default project in the config file (0600), or
 * the token in the OS keychain with --keychain when this machine has one.
 */
export function registerLogin(program: Command, context: ContextFactory): void {
  program
    .command('login')
    .description('check a session token against the server and keep it (config file 0600, or the OS keychain)')
    .option(
      '--keychain',
      'keep the token in the OS keychain instead of the file (falls back to the file, with a warning, when there is none)',
    )
    .option(
      '--oauth',
      "authorize in the browser with the server's OAuth authorization server instead of a session token",
    )
    .option('--scope <scope>', 'with --oauth: the scope to ask for (default: what the MCP endpoint asks for)')
    .addHelpText(
      'after',
      '\nThe token comes from --token, CAIRN_TOKEN, or a hidden prompt when run in a terminal.\n' +
        'Example: cairn login --url https://cairn.example.com --project web-app\n\n' +
        'With --oauth, cairn opens the browser (CAIRN_BROWSER or BROWSER names another opener) and\n' +
        'prints the URL; the tokens it gets are for `cairn mcp`. Example: cairn login --oauth --url https://cairn.example.com',
    )
    .action(async (options: LoginOptions, command: Command) => {
      const ctx = context(command);
      if (options.oauth) return loginWithOAuth(ctx, options);
      const flags = ctx.flags;
      const file = await readConfigFile(ctx.paths.configFile);
      const rawUrl = flags.url ?? ctx.io.env.CAIRN_URL ?? file.url;
      if (!rawUrl)
        throw new CliError(
          'cairn login needs --url <server>',
          ExitCode.usage,
          'Example: cairn login --url https://cairn.example.com',
        );
      const url = parseServerUrl(rawUrl, flags.url ? '--url' : 'CAIRN_URL');
      let token = flags.token?.trim() || ctx.io.env.CAIRN_TOKEN?.trim();
      if (!token && ctx.io.stdin.isTTY) token = await promptHidden('Session token: ', ctx.io);
      if (!token) {
        throw new CliError(
          'cairn login needs a token: --token <token>, CAIRN_TOKEN, or run it in a terminal to be asked',
          ExitCode.usage,
          'An admin issues one with `cairn admin tokens create`.',
        );
      }
      const api = ctx.client(url, token);
      const me = await ok(api.GET('/v1/whoami'));
      const project =
        flags.project ?? (me.kind === 'session' ? (me.defaultProject ?? undefined) : undefined) ?? file.project;
      if (project && flags.project && me.kind === 'session' && me.tenant) {
        const projects = await ok(
          api.GET('/v1/tenants/{slug}/projects', { params: { path: { slug: me.tenant.slug } } }),
        );
        if (!projects.items.some((item) => item.slug === project)) {
          throw new CliError(
            `Unknown project "${project}" for this token`,
            ExitCode.notFound,
            `Projects it may use: ${projects.items.map((item) => item.slug).join(', ') || 'none'}.`,
          );
        }
      }
      const base = url.href.replace(/\/+$/, '');
      let storedIn: 'keychain' | 'file' = 'file';
      if (options.keychain) {
        if (await ctx.io.keychain?.writeToken(base, 'token', token)) storedIn = 'keychain';
        else
          ctx.output.warn('No usable OS keychain on this machine: the token is kept in the config file (mode 0600).');
      }
      // A session token replaces an OAuth login: one way of logging in at a time.
      const { token: _previous, oauth: _oauth, ...rest } = file;
      await writeConfigFile(ctx.paths.configFile, {
        ...rest,
        url: base,
        ...(storedIn === 'file' ? { token } : {}),
        ...(project ? { project } : {}),
      });
      if (storedIn === 'file') await ctx.io.keychain?.deleteToken(base, 'token');
      if (file.oauth?.inKeychain) await ctx.io.keychain?.deleteToken(file.oauth.mcpUrl, 'oauth');
      ctx.output.result(
        {
          server: url.origin,
          tenant: me.tenant?.slug ?? null,
          role: me.role ?? 'platform-admin',
          project: project ?? null,
          expiresAt: me.expiresAt ?? null,
          tokenStoredIn: storedIn,
          configFile: ctx.paths.configFile,
        },
        (view) =>
          `Logged in to ${view.server} as ${view.role}${view.tenant ? ` of ${view.tenant}` : ''}` +
          `${view.project ? `, project ${view.project}` : ''}.\n` +
          `Settings kept in ${view.configFile} (mode 0600)` +
          `${view.tokenStoredIn === 'keychain' ? '; the token in the OS keychain' : ''}.`,
      );
    });
}
