import { type K8sObject, nameOf, podSpecOf } from './manifests';

/**
 * The environment a container gets in the cluster, worked out from rendered objects the way the
 * kubelet does: envFrom ConfigMaps/Secrets first, then env entries (value or ConfigMap/Secret
 * key refs), later entries winning. Secret data is base64 as in the API; stringData is plain.
 */

function findObject(objects: readonly K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name);
}

function dataOf(object: K8sObject): Record<string, string> {
  if (object.kind === 'ConfigMap') return { ...(object.data ?? {}) };
  const decoded = Object.fromEntries(
    Object.entries((object.data ?? {}) as Record<string, string>).map(([k, v]) => [
      k,
      Buffer.from(v, 'base64').toString('utf8'),
    ]),
  );
  return { ...decoded, ...(object.stringData ?? {}) };
}

export interface ContainerEnvironment {
  readonly env: Record<string, string>;
  /** Names only: what the manifests set, including optional refs whose key is absent. */
  readonly names: Set<string>;
}

export function containerEnvironment(
  objects: readonly K8sObject[],
  workload: K8sObject,
  options: { containerName?: string; namesOnly?: boolean } = {},
): ContainerEnvironment {
  const { containerName, namesOnly = false } = options;
  const spec = podSpecOf(workload);
  const container = (spec?.containers ?? []).find((c: any) => !containerName || c.name === containerName);
  if (!container) throw new Error(`${nameOf(workload)} has no container ${containerName ?? ''}`);
  const env: Record<string, string> = {};
  const names = new Set<string>();
  const source = (kind: string, ref: { name: string; optional?: boolean }) => {
    const found = findObject(objects, kind, ref.name);
    // Names only: an operator's existingSecret is not part of the rendering.
    if (!found && !ref.optional && !namesOnly) throw new Error(`${nameOf(workload)}: ${kind} ${ref.name} not found`);
    return found && dataOf(found);
  };
  for (const from of container.envFrom ?? []) {
    const data = from.configMapRef ? source('ConfigMap', from.configMapRef) : source('Secret', from.secretRef);
    for (const [k, v] of Object.entries(data ?? {})) {
      env[`${from.prefix ?? ''}${k}`] = v;
      names.add(`${from.prefix ?? ''}${k}`);
    }
  }
  for (const entry of container.env ?? []) {
    names.add(entry.name);
    if ('value' in entry) {
      env[entry.name] = String(entry.value);
      continue;
    }
    const ref = entry.valueFrom?.secretKeyRef ?? entry.valueFrom?.configMapKeyRef;
    if (!ref) throw new Error(`${nameOf(workload)}: ${entry.name} uses an unsupported valueFrom`);
    const data = source(entry.valueFrom.secretKeyRef ? 'Secret' : 'ConfigMap', ref);
    const value = data?.[ref.key];
    if (value === undefined) {
      if (ref.optional || namesOnly) continue;
      throw new Error(`${nameOf(workload)}: ${entry.name} refers to missing key ${ref.key} of ${ref.name}`);
    }
    env[entry.name] = value;
  }
  return { env, names };
}

export const CAIRN_APPS = ['api', 'mcp-gateway', 'worker'] as const;
export type CairnApp = (typeof CAIRN_APPS)[number];

/** The Deployment of each app and the migration Job, by the component label the chart sets. */
export function cairnWorkloads(objects: readonly K8sObject[]): Record<CairnApp | 'migrate', K8sObject> {
  const byComponent = (kind: string, component: string) => {
    const found = objects.find(
      (o) => o.kind === kind && o.metadata.labels?.['app.kubernetes.io/component'] === component,
    );
    if (!found) throw new Error(`no ${kind} with component ${component}`);
    return found;
  };
  return {
    api: byComponent('Deployment', 'api'),
    'mcp-gateway': byComponent('Deployment', 'mcp-gateway'),
    worker: byComponent('Deployment', 'worker'),
    migrate: byComponent('Job', 'migrate'),
  };
}
