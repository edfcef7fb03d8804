import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * Renders the Helm chart and the kustomize overlays with the pinned tools that
 * scripts/install-deploy-tools.sh puts in .tools/bin, and parses the output into objects.
 */

export const REPO_ROOT = resolve(__dirname, '../../..');
export const CHART_DIR = join(REPO_ROOT, 'deploy/helm/cairn');
export const CI_VALUES_DIR = join(REPO_ROOT, 'deploy/helm/ci-values');
export const KUSTOMIZE_DIR = join(REPO_ROOT, 'deploy/kustomize');
export const TOOLS_DIR = join(REPO_ROOT, '.tools');
/** The image digest an operator's values give (the chart refuses a tag alone); under every render unless left out. */
export const IMAGE_BY_DIGEST_VALUES = join(REPO_ROOT, 'deploy/test/fixtures/image-by-digest.yaml');

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: any;
}

/** A pinned tool from .tools/bin; a clear error says how to get it when it is missing. */
export function tool(name: 'helm' | 'kustomize'): string {
  const path = join(TOOLS_DIR, 'bin', name);
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: run scripts/install-deploy-tools.sh (or npm run deploy:check)`);
  }
  return path;
}

export function run(command: string, args: readonly string[], cwd = REPO_ROOT): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 << 20,
    });
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${e.stderr || e.stdout || e.message}`, { cause: error });
  }
}

/** Every YAML document of a multi-document stream, empty ones dropped; fails on a YAML error. */
export function parseManifests(text: string): K8sObject[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS({ maxAliasCount: 100 }) as K8sObject | null;
    return value === null ? [] : [value];
  });
}

export interface RenderOptions {
  valuesFiles?: readonly string[];
  set?: Record<string, string>;
  releaseName?: string;
  namespace?: string;
  /** false: render without the digest of IMAGE_BY_DIGEST_VALUES, as chart defaults alone. */
  imageByDigest?: boolean;
}

export function helmArgs(options: RenderOptions): string[] {
  const args: string[] = options.imageByDigest === false ? [] : ['-f', IMAGE_BY_DIGEST_VALUES];
  for (const file of options.valuesFiles ?? []) args.push('-f', file);
  for (const [key, value] of Object.entries(options.set ?? {})) args.push('--set', `${key}=${value}`);
  return args;
}

export function renderChart(options: RenderOptions = {}): K8sObject[] {
  const args = [
    'template',
    options.releaseName ?? 'cairn',
    CHART_DIR,
    '--namespace',
    options.namespace ?? 'cairn',
    ...helmArgs(options),
  ];
  return parseManifests(run(tool('helm'), args));
}

/** The CI value sets: deploy/helm/ci-values/<name>.yaml, plus the chart's defaults as "default". */
export function valueSets(): Record<string, string[]> {
  const sets: Record<string, string[]> = { default: [] };
  for (const file of readdirSync(CI_VALUES_DIR).filter((f) => f.endsWith('.yaml'))) {
    sets[file.replace(/\.yaml$/, '')] = [join(CI_VALUES_DIR, file)];
  }
  return sets;
}

export const OVERLAYS = ['dev', 'production', 'gpu'] as const;

export function buildOverlay(overlay: string): K8sObject[] {
  return parseManifests(run(tool('kustomize'), ['build', join(KUSTOMIZE_DIR, 'overlays', overlay)]));
}

export function nameOf(object: K8sObject): string {
  return `${object.kind}/${object.metadata?.name}`;
}

/** The pod template of a workload, or undefined for other kinds. */
export function podSpecOf(object: K8sObject): any {
  switch (object.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
      return object.spec?.template?.spec;
    case 'CronJob':
      return object.spec?.jobTemplate?.spec?.template?.spec;
    case 'Pod':
      return object.spec;
    default:
      return undefined;
  }
}
