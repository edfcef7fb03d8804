import { Spec, Validation } from '@cyclonedx/cyclonedx-library';

/**
 * What CI checks of the SBOM `npm run sbom` writes (and the image carries at /app/dist/sbom.cdx.json):
 * valid against the CycloneDX JSON schema of its spec version (strict), about this application,
 * listing exactly the production packages package-lock.json pins (by name and version), each with
 * a package URL naming that package and a licence.
 */

/** The lock file entries read: package-lock.json v3 `packages`, keyed by install path ('' = the root). */
export interface LockFile {
  readonly name?: string;
  readonly version?: string;
  readonly packages: Record<
    string,
    { name?: string; version?: string; dev?: boolean; optional?: boolean; link?: boolean; license?: string }
  >;
}

interface SbomComponent {
  name?: string;
  group?: string;
  version?: string;
  purl?: string;
  licenses?: unknown[];
  components?: SbomComponent[];
}

const MAX_SCHEMA_ERRORS = 10;
/** One validator per spec version: compiling the schema is the slow part. */
const validators = new Map<Spec.Version, Validation.JsonStrictValidator>();

/**
 * The production packages of the lock file as `name@version`: every entry not marked dev (npm's
 * own reckoning of what `--omit dev` installs) and not a link. An optional package that is not
 * installed (a native binary for another platform) is not shipped, so not expected.
 */
export function productionPackages(lock: LockFile, isInstalled: (path: string) => boolean): Set<string> {
  const packages = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev || entry.link) continue;
    if (entry.optional && !isInstalled(path)) continue;
    packages.add(
      `${entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`,
    );
  }
  return packages;
}

/** Every problem found, as lines for a person; empty when the SBOM is what it should be. */
export async function sbomProblems(sbomText: string, expected: ReadonlySet<string>, lock: LockFile): Promise<string[]> {
  let sbom: {
    bomFormat?: string;
    specVersion?: string;
    metadata?: { component?: SbomComponent };
    components?: SbomComponent[];
  };
  try {
    sbom = JSON.parse(sbomText) as typeof sbom;
  } catch {
    return ['not JSON'];
  }
  if (sbom.bomFormat !== 'CycloneDX') return [`bomFormat is ${JSON.stringify(sbom.bomFormat)}, not "CycloneDX"`];
  const version = Object.values(Spec.Version).find((v) => v === sbom.specVersion);
  if (!version) return [`specVersion ${JSON.stringify(sbom.specVersion)} is not a CycloneDX version`];
  const problems: string[] = [];
  if (!validators.has(version)) validators.set(version, new Validation.JsonStrictValidator(version));
  const errors: unknown = await validators.get(version)!.validate(sbomText);
  if (errors !== null) {
    // ajv's errors: where in the document, and what is wrong there.
    const list = (Array.isArray(errors) ? errors : [errors]) as { instancePath?: string; message?: string }[];
    for (const e of list.slice(0, MAX_SCHEMA_ERRORS))
      problems.push(`schema ${version}: ${e.instancePath || '/'} ${e.message}`);
  }
  const root = sbom.metadata?.component;
  const rootEntry = lock.packages[''];
  if (root?.name !== (rootEntry?.name ?? lock.name) || root?.version !== (rootEntry?.version ?? lock.version)) {
    problems.push(
      `metadata.component is ${root?.name}@${root?.version}, not the application ${lock.name}@${lock.version}`,
    );
  }
  const listed = new Set<string>();
  for (const component of flatten(sbom.components ?? [])) {
    const id = `${component.group ? `${component.group}/` : ''}${component.name}@${component.version}`;
    listed.add(id);
    if (!component.purl || decodeURIComponent(component.purl) !== `pkg:npm/${id}`) {
      problems.push(`${id}: package URL ${JSON.stringify(component.purl)} does not name it (pkg:npm/${id})`);
    }
    if (!component.licenses?.length) problems.push(`${id}: no licence`);
  }
  for (const id of [...expected].filter((p) => !listed.has(p)).sort())
    problems.push(`${id}: in package-lock.json, not in the SBOM`);
  for (const id of [...listed].filter((p) => !expected.has(p)).sort())
    problems.push(`${id}: in the SBOM, not a production package of package-lock.json`);
  return problems;
}

function flatten(components: SbomComponent[]): SbomComponent[] {
  return components.flatMap((c) => [c, ...flatten(c.components ?? [])]);
}
