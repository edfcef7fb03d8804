/**
 * The Node.js versions Cairn supports, as package.json `engines` states them. `npm start` and
 * `npm test` still run on an older node (most things work), but say once that it is not
 * supported, so a failure there is not mistaken for a Cairn bug.
 */
export const SUPPORTED_NODE_ENGINES = '^22.19.0 || ^24.0.0';
export const SUPPORTED_NODE_TEXT = 'Node 22 (22.19 or newer) and Node 24 LTS';

/** The oldest supported release, as [major, minor]. */
const OLDEST: readonly [number, number] = [22, 19];

/** One warning line when `version` (default: this process's) is older than every supported release. */
export function nodeVersionWarning(version: string = process.versions.node): string | undefined {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  if (!Number.isFinite(major) || !Number.isFinite(minor)) return undefined;
  if (major > OLDEST[0] || (major === OLDEST[0] && minor >= OLDEST[1])) return undefined;
  return (
    `warning: Node ${version.replace(/^v/, '')} is not supported (Cairn supports ${SUPPORTED_NODE_TEXT}); ` +
    'continuing, but please upgrade'
  );
}
