import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { resolveMcpEndpoint } from '../../api/mcp-endpoint';
import { type CliContext, type ContextFactory } from '../../cli-context';
import { CliError, ExitCode } from '../../cli-error';
import { requireUrl } from '../../settings/settings';
import { oneOf } from '../input';
import {
  CLIENTS,
  type ClientConfig,
  clientConfig,
  type ClientName,
  type Scope,
  SCOPES,
  TOKEN_VARIABLE,
} from './client-configs';

interface ConnectOptions {
  readonly scope: Scope;
  readonly print?: boolean;
  readonly name: string;
}

const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

function entryName(value: string): string {
  if (!NAME_PATTERN.test(value)) throw new CliError('--name must be 1-64 letters, digits, _ or -', ExitCode.usage);
  return value;
}

/** The file formats' editors load only when a file is edited (jsonc-parser, toml-patch). */
async function edit(
  config: ClientConfig,
  text: string | undefined,
  name: string,
  entry: ClientConfig['entry'] | undefined,
) {
  if (config.format === 'toml')
    return (await import('./toml-config')).editToml(text, config.file, config.container, name, entry);
  return (await import('./config-files')).editJson(text, config.file, config.container, name, entry);
}

/** The entry wrapped in its container, as a person would paste it. */
async function snippet(config: ClientConfig, name: string): Promise<string> {
  if (config.format === 'toml') return (await edit(config, undefined, name, config.entry)).text;
  return `${JSON.stringify({ [config.container]: { [name]: config.entry } }, null, 2)}\n`;
}

async function checkProject(ctx: CliContext): Promise<string | undefined> {
  const settings = await ctx.settings();
  const project = settings.project?.value;
  if (!project || !settings.token) return project;
  const api = await ctx.api();
  const me = await ok(api.GET('/v1/whoami'));
  if (me.kind !== 'session' || !me.tenant) return project;
  const projects = await ok(api.GET('/v1/tenants/{slug}/projects', { params: { path: { slug: me.tenant.slug } } }));
  if (!projects.items.some((item) => item.slug === project)) {
    throw new CliError(`Unknown project "${project}" for this token`, ExitCode.notFound);
  }
  if (me.defaultProject !== project) {
    ctx.output.warn(
      `MCP tool calls use the token's default project (${me.defaultProject ?? 'none'}); name "${project}" in calls, ` +
        `or issue a token with defaultProject "${project}" (cairn admin tokens create --default-project ${project}).`,
    );
  }
  return project;
}

/**
 * `cairn connect <client>` / `cairn disconnect <client>`: writes (or prints) the client's MCP
 * configuration for this server, the token referenced through CAIRN_TOKEN and never written;
 * merges into an existing file keeping everything else (JSON and JSONC through jsonc-parser's
 * edits, TOML through toml-patch); disconnect removes only that entry.
 */
export function registerConnect(program: Command, context: ContextFactory): void {
  const clientHelp = `one of ${CLIENTS.join(', ')}`;
  program
    .command('connect')
    .description("write (or --print) a client's MCP configuration for this server; the token stays in CAIRN_TOKEN")
    .argument('<client>', clientHelp, oneOf(CLIENTS))
    .option('--scope <scope>', 'user: your own config file; project: the repository (commit it)', oneOf(SCOPES), 'user')
    .option('--print', 'print the entry instead of writing it')
    .option('--name <name>', 'the server entry name', entryName, 'cairn')
    .addHelpText(
      'after',
      '\nFiles: claude-code ~/.claude.json | .mcp.json; cursor ~/.cursor/mcp.json | .cursor/mcp.json;\n' +
        'codex $CODEX_HOME/config.toml (~/.codex) | .codex/config.toml; vscode <profile>/mcp.json | .vscode/mcp.json.\n' +
        'Example: cairn connect claude-code --scope project',
    )
    .action(async (client: ClientName, options: ConnectOptions, command: Command) => {
      const ctx = context(command);
      requireUrl(await ctx.settings());
      const project = await checkProject(ctx);
      const endpoint = await resolveMcpEndpoint(ctx);
      if (endpoint.source === 'guess') {
        ctx.output.warn(
          `Could not confirm where the MCP endpoint is; using ${endpoint.url.href}. ` +
            'Pass --mcp-url (or set CAIRN_MCP_URL), or ask the operator to set MCP_PUBLIC_URL.',
        );
      }
      const config = clientConfig(client, options.scope, {
        mcpUrl: endpoint.url.href,
        cwd: process.cwd(),
        env: ctx.io.env,
        home: ctx.io.home,
      });
      const token = (await ctx.settings()).token?.value;
      const text = await snippet(config, options.name);
      // The entry only names the variable; make sure no code path ever put the secret itself there.
      if (token && text.includes(token))
        throw new CliError('Refusing to write a configuration that contains the token', ExitCode.failure);
      if (options.print) {
        ctx.output.result(
          {
            client,
            scope: options.scope,
            file: config.file,
            mcpUrl: endpoint.url.href,
            mcpUrlSource: endpoint.source,
            entry: config.entry,
            snippet: text,
          },
          (view) => `# ${view.file}\n${view.snippet}`,
        );
        return;
      }
      const { readOptional, writeAtomically } = await import('./config-files');
      const before = await readOptional(config.file);
      const { text: after, previous } = await edit(config, before, options.name, config.entry);
      const action =
        previous === undefined
          ? 'added'
          : JSON.stringify(previous) === JSON.stringify(config.entry)
            ? 'unchanged'
            : 'replaced';
      if (action !== 'unchanged') await writeAtomically(config.file, after);
      if (!ctx.io.env[TOKEN_VARIABLE]) {
        ctx.output.warn(
          `${TOKEN_VARIABLE} is not set here: set it where ${client} starts (export ${TOKEN_VARIABLE}=…), or the server answers 401.`,
        );
      }
      ctx.output.result(
        {
          client,
          scope: options.scope,
          file: config.file,
          name: options.name,
          action,
          mcpUrl: endpoint.url.href,
          mcpUrlSource: endpoint.source,
          project: project ?? null,
          note: config.note,
        },
        (view) => {
          const verb =
            view.action === 'unchanged' ? 'Already connected' : view.action === 'added' ? 'Connected' : 'Updated';
          return [
            `${verb}: ${client} → ${view.mcpUrl}`,
            `  ${view.file} (entry "${view.name}")`,
            `  ${view.note}`,
          ].join('\n');
        },
      );
    });

  program
    .command('disconnect')
    .description("remove this server's entry from a client's MCP configuration (nothing else)")
    .argument('<client>', clientHelp, oneOf(CLIENTS))
    .option('--scope <scope>', 'user or project, as given to connect', oneOf(SCOPES), 'user')
    .option('--name <name>', 'the server entry name', entryName, 'cairn')
    .action(async (client: ClientName, options: ConnectOptions, command: Command) => {
      const ctx = context(command);
      const config = clientConfig(client, options.scope, {
        mcpUrl: 'http://unused.invalid/mcp',
        cwd: process.cwd(),
        env: ctx.io.env,
        home: ctx.io.home,
      });
      const { readOptional, writeAtomically } = await import('./config-files');
      const before = await readOptional(config.file);
      const { text: after, previous } =
        before === undefined ? { text: '', previous: undefined } : await edit(config, before, options.name, undefined);
      if (previous !== undefined) await writeAtomically(config.file, after);
      ctx.output.result(
        { client, scope: options.scope, file: config.file, name: options.name, removed: previous !== undefined },
        (view) =>
          view.removed
            ? `Removed "${view.name}" from ${view.file}.`
            : `No "${view.name}" entry in ${view.file}: nothing to remove.`,
      );
    });
}
