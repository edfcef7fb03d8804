import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { type Argument, DockerfileParser, type From, type Instruction } from 'dockerfile-ast';

/**
 * Runs a Dockerfile without Docker (CI has no engine): every stage gets its own root directory
 * under a staging dir; WORKDIR/ENV/COPY/RUN are carried out there in order, absolute paths mapped
 * into that root. Only the instructions our image uses are understood; any other fails loudly,
 * so the recipe cannot drift away from what this check proves.
 */

export interface Step {
  readonly keyword: string;
  readonly args: string[];
  readonly flags: Record<string, string>;
  /** The arguments as written (RUN's shell command). */
  readonly raw: string;
  /** JSON-form arguments (CMD ["api"]), when used. */
  readonly json?: string[];
}

export interface Stage {
  readonly name: string;
  readonly from: string;
  readonly steps: Step[];
}

export interface ParsedDockerfile {
  readonly args: Record<string, string>;
  readonly stages: Stage[];
  readonly errors: string[];
}

function toStep(instruction: Instruction): Step {
  const flags: Record<string, string> = {};
  const withFlags = instruction as Instruction & {
    getFlags?: () => { getName(): string; getValue(): string | null }[];
  };
  for (const flag of withFlags.getFlags?.() ?? []) flags[flag.getName()] = flag.getValue() ?? '';
  const jsonForm = instruction as Instruction & { getJSONStrings?: () => { getJSONValue(): string }[] };
  const json = jsonForm.getJSONStrings?.().map((s) => s.getJSONValue());
  const args = instruction.getArguments().map((a: Argument) => a.getValue());
  return {
    keyword: instruction.getKeyword(),
    args: args.filter((a) => !a.startsWith('--') || instruction.getKeyword() === 'RUN'),
    flags,
    raw: instruction.getArgumentsContent() ?? '',
    json: json && json.length > 0 ? json : undefined,
  };
}

export function parseDockerfile(path: string): ParsedDockerfile {
  const dockerfile = DockerfileParser.parse(readFileSync(path, 'utf8'));
  const args: Record<string, string> = {};
  for (const arg of dockerfile.getInitialARGs()) {
    const property = arg.getProperty();
    if (property) args[property.getName()] = property.getValue() ?? '';
  }
  const expand = (text: string) => text.replace(/\$\{?(\w+)\}?/g, (_, name: string) => args[name] ?? '');
  const stages: { name: string; from: string; steps: Step[] }[] = [];
  const errors: string[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    if (!/^[A-Z]+$/.test(keyword)) errors.push(`unknown instruction ${keyword}`);
    if (keyword === 'FROM') {
      const from = instruction as From;
      stages.push({
        name: from.getBuildStage() ?? String(stages.length),
        from: expand(from.getArguments()[0]?.getValue() ?? ''),
        steps: [],
      });
    } else if (stages.length > 0) {
      stages[stages.length - 1].steps.push(toStep(instruction));
    }
  }
  return { args, stages, errors };
}

/** .dockerignore patterns as path tests (the subset we use: **, *, plain paths). */
export function dockerignore(path: string): (relativePath: string) => boolean {
  const patterns = existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  const regexes = patterns.map((p) => {
    const body = p
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '(?:.*/)?')
      .replace(/\*(?!\))/g, '[^/]*');
    return new RegExp(`^${body}(?:/.*)?$`);
  });
  return (relativePath) => regexes.some((r) => r.test(relativePath));
}

export interface RunOptions {
  /** The build context (the repository root). */
  readonly context: string;
  readonly dockerignorePath: string;
  /** Where each stage's root directory is made. */
  readonly staging: string;
  readonly log?: (line: string) => void;
  /** Added to RUN's environment; only for knobs that change no result (npm's cache policy). */
  readonly runEnv?: Record<string, string>;
  /** `docker build --build-arg NAME=value`: a value for an ARG the Dockerfile declares. */
  readonly buildArgs?: Record<string, string>;
}

export function stageRoot(staging: string, stage: string): string {
  return join(staging, stage);
}

/** Executes every stage; returns the final stage's root and the ENV/WORKDIR/ENTRYPOINT/CMD it declares. */
export function runDockerfile(parsed: ParsedDockerfile, options: RunOptions) {
  const ignored = dockerignore(options.dockerignorePath);
  let final = {
    root: '',
    env: {} as Record<string, string>,
    workdir: '/',
    entrypoint: [] as string[],
    cmd: [] as string[],
  };
  for (const stage of parsed.stages) {
    const root = stageRoot(options.staging, stage.name);
    mkdirSync(root, { recursive: true });
    const env: Record<string, string> = {};
    const buildArgs: Record<string, string> = { ...parsed.args };
    // As in Docker, the ARGs a stage declares are in its RUN steps' environment when they have a value.
    const declared = new Set<string>();
    let workdir = '/';
    let entrypoint: string[] = [];
    let cmd: string[] = [];
    const inRoot = (path: string) => join(root, posix.resolve(workdir, path));
    for (const step of stage.steps) {
      options.log?.(`[${stage.name}] ${step.keyword} ${step.raw}`);
      switch (step.keyword) {
        case 'ARG':
          for (const a of step.args) {
            const [name, value] = a.split('=');
            buildArgs[name] = options.buildArgs?.[name] ?? value ?? buildArgs[name] ?? '';
            declared.add(name);
          }
          break;
        case 'WORKDIR':
          workdir = posix.resolve(workdir, step.args[0]);
          mkdirSync(join(root, workdir), { recursive: true });
          break;
        case 'ENV':
          for (let i = 0; i < step.args.length; i += 1) {
            const [name, ...rest] = step.args[i].split('=');
            env[name] = rest.join('=');
          }
          break;
        case 'COPY': {
          const [dest, ...reversed] = [...step.args].reverse();
          const from = step.flags.from;
          for (const source of reversed.reverse()) {
            const src = from ? join(stageRoot(options.staging, from), source) : join(options.context, source);
            const target =
              dest.endsWith('/') || dest === '.' ? join(inRoot(dest), posix.basename(source)) : inRoot(dest);
            const isDir = statSync(src).isDirectory();
            mkdirSync(dirname(target), { recursive: true });
            cpSync(src, target, {
              recursive: true,
              // As Docker's COPY: a link keeps its target as written (node_modules/.bin), which
              // the integrity manifest records; Node would otherwise rewrite it to an absolute path.
              verbatimSymlinks: true,
              filter: (path) => from !== undefined || !ignored(relative(options.context, path)),
            });
            if (step.flags.chmod && !isDir) chmodSync(target, parseInt(step.flags.chmod, 8));
          }
          break;
        }
        case 'RUN': {
          const args = Object.fromEntries([...declared].filter((n) => buildArgs[n]).map((n) => [n, buildArgs[n]]));
          try {
            execFileSync('/bin/sh', ['-c', step.raw], {
              cwd: join(root, workdir),
              env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.runEnv, ...args, ...env },
              stdio: ['ignore', 'pipe', 'pipe'],
              maxBuffer: 256 << 20,
            });
          } catch (error) {
            const e = error as { stdout?: Buffer; stderr?: Buffer };
            throw new Error(
              `[${stage.name}] RUN ${step.raw} failed:\n${String(e.stdout ?? '')}\n${String(e.stderr ?? '')}`,
              {
                cause: error,
              },
            );
          }
          break;
        }
        case 'ENTRYPOINT':
          entrypoint = step.json ?? ['/bin/sh', '-c', step.raw];
          break;
        case 'CMD':
          cmd = step.json ?? ['/bin/sh', '-c', step.raw];
          break;
        // Metadata only: nothing to carry out outside Docker.
        case 'LABEL':
        case 'EXPOSE':
        case 'VOLUME':
        case 'USER':
        case 'HEALTHCHECK':
          break;
        default:
          throw new Error(
            `${step.keyword} is not understood by the no-Docker recipe check; extend deploy/test/lib/dockerfile.ts`,
          );
      }
    }
    final = { root, env, workdir, entrypoint, cmd };
  }
  return final;
}
