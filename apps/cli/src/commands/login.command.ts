import { type Command } from 'commander';
import { ok } from '../api/cairn-client';
import { CliError, ExitCode } from '../cli-error';
import { readConfigFile, writeConfigFile } from '../settings/config-file';
import { parseServerUrl } from '../settings/settings';
import { type ContextFactory } from '../cli-context';

interface LoginOptions {
  readonly url?: string;
  readonly token?: string;
  readonly project?: string;
}

/**
 * `cairn login --url <server> [--token …] [--project …]`: checks the token against the server
 * (`GET /v1/whoami`) and keeps server, token and default project in the config file (0600).
 */
export function registerLogin(program: Command, context: ContextFactory): void {
  program
    .command('login')
    .description('keep the server URL, a session token and a default project in your config file (checked first)')
    .action(async (_options: LoginOptions, command: Command) => {
      const ctx = context(command);
      const flags = ctx.flags;
      const file = await readConfigFile(ctx.paths.configFile);
      const rawUrl = flags.url ?? ctx.io.env.CAIRN_URL ?? file.url;
      if (!rawUrl) throw new CliError('cairn login needs --url <server>', ExitCode.usage);
      const url = parseServerUrl(rawUrl, '--url');
      const token = flags.token ?? ctx.io.env.CAIRN_TOKEN;
      if (!token) {
        throw new CliError(
          'cairn login needs a token: --token <token> or CAIRN_TOKEN',
          ExitCode.usage,
          'An admin issues one with `cairn admin tokens create`.',
        );
      }
      const me = await ok(ctx.client(url, token).GET('/v1/whoami'));
      const project = flags.project ?? me.defaultProject ?? file.project;
      await writeConfigFile(ctx.paths.configFile, {
        ...file,
        url: url.href.replace(/\/+$/, ''),
        token,
        ...(project ? { project } : {}),
      });
      ctx.output.result(
        { server: url.origin, tenant: me.tenant?.slug, role: me.role, project, configFile: ctx.paths.configFile },
        (view) =>
          `Logged in to ${view.server} as ${view.role ?? 'platform admin'}${view.tenant ? ` of ${view.tenant}` : ''}` +
          `${view.project ? `, project ${view.project}` : ''}.\nSettings kept in ${view.configFile} (mode 0600).`,
      );
    });
}
