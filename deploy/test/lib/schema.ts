import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import ts from 'typescript';
import { type K8sObject, nameOf, REPO_ROOT, TOOLS_DIR } from './manifests';

/**
 * Validation of rendered objects, failing on unknown fields:
 * - built-in kinds against the strict JSON schemas of the Kubernetes API (every object has
 *   additionalProperties: false), from kubernetes-validate's wheel (scripts/install-deploy-tools.sh);
 * - custom resources (Gateway API, Prometheus Operator) against the kubernetes-models types, through
 *   the TypeScript compiler, whose excess-property check rejects unknown fields.
 */

export const KUBERNETES_VERSIONS = ['v1.30.0', 'v1.36.0'] as const;
const BASE = 'https://kubernetes.schemas.local/api/';

/** The TypeScript type of each custom resource kind we render. */
export const CUSTOM_RESOURCE_TYPES: Record<string, { module: string; type: string }> = {
  'gateway.networking.k8s.io/v1/HTTPRoute': {
    module: '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/HTTPRoute',
    type: 'IHTTPRoute',
  },
  'monitoring.coreos.com/v1/ServiceMonitor': {
    module: '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor',
    type: 'IServiceMonitor',
  },
  'monitoring.coreos.com/v1/PrometheusRule': {
    module: '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule',
    type: 'IPrometheusRule',
  },
};

/**
 * Custom resources rendered without a schema to check them against: CloudNativePG publishes its
 * CRDs but no kubernetes-models package, and the validation runs offline. Their key fields are
 * asserted one by one instead (deploy/test/cloudnativepg.spec.ts).
 */
export const UNCHECKED_CUSTOM_RESOURCES = new Set(['postgresql.cnpg.io/v1/Cluster', 'postgresql.cnpg.io/v1/Pooler']);

export interface Problem {
  object: string;
  message: string;
}

function schemaFile(object: K8sObject): string {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const kind = object.kind.toLowerCase();
  return group ? `${kind}-${group.split('.')[0]}-${version}.json` : `${kind}-${version}.json`;
}

/** Strict validators of one Kubernetes version, compiled on first use per kind. */
export class KubernetesSchemas {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction | undefined>();

  constructor(readonly version: (typeof KUBERNETES_VERSIONS)[number]) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    // The OpenAPI formats the schemas use; their types are already checked by `type`.
    for (const format of ['int32', 'int64', 'double', 'byte', 'date-time', 'int-or-string']) {
      this.ajv.addFormat(format, true);
    }
    const definitions = JSON.parse(readFileSync(join(this.dir, '_definitions.json'), 'utf8')) as object;
    this.ajv.addSchema({ ...definitions, $id: `${BASE}_definitions.json` });
  }

  get dir(): string {
    const dir = join(TOOLS_DIR, 'k8s-schemas', `${this.version}-local-strict`);
    if (!existsSync(dir)) throw new Error(`${dir} is missing: run scripts/install-deploy-tools.sh`);
    return dir;
  }

  /** undefined when the kind is not a built-in of this version (a custom resource). */
  private validator(object: K8sObject): ValidateFunction | undefined {
    const file = schemaFile(object);
    if (!this.compiled.has(file)) {
      const path = join(this.dir, file);
      const schema = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as object) : undefined;
      this.compiled.set(file, schema && this.ajv.compile({ ...schema, $id: `${BASE}${file}` }));
    }
    return this.compiled.get(file);
  }

  isBuiltIn(object: K8sObject): boolean {
    return this.validator(object) !== undefined;
  }

  validate(object: K8sObject): Problem[] {
    const validate = this.validator(object);
    if (!validate)
      return [
        {
          object: nameOf(object),
          message: `${object.apiVersion} ${object.kind} is not a Kubernetes ${this.version} kind`,
        },
      ];
    if (validate(object)) return [];
    return (validate.errors ?? []).map((e) => ({
      object: nameOf(object),
      message: `${this.version}: ${e.instancePath || '/'} ${e.message ?? ''}${
        e.keyword === 'additionalProperties'
          ? ` (${(e.params as { additionalProperty: string }).additionalProperty})`
          : ''
      }`,
    }));
  }
}

/**
 * Type-checks custom resources as object literals of their kubernetes-models interface: unknown
 * fields (TS2353/TS2561), missing required fields and wrong types are reported per object.
 */
export function validateCustomResources(objects: readonly K8sObject[]): Problem[] {
  const problems: Problem[] = [];
  const lines: string[] = [];
  const owners: { start: number; end: number; object: K8sObject }[] = [];
  const imported = new Set<string>();
  objects.forEach((object, index) => {
    const gvk = `${object.apiVersion}/${object.kind}`;
    const model = CUSTOM_RESOURCE_TYPES[gvk];
    if (!model && UNCHECKED_CUSTOM_RESOURCES.has(gvk)) return;
    if (!model) {
      problems.push({ object: nameOf(object), message: `no schema for custom resource ${gvk}` });
      return;
    }
    if (!imported.has(gvk)) {
      lines.unshift(`import type { ${model.type} as T${imported.size} } from '${model.module}';`);
      imported.add(gvk);
    }
    const alias = `T${[...imported].indexOf(gvk)}`;
    const body = JSON.stringify(object, null, 1).split('\n');
    owners.push({ start: lines.length, end: lines.length + body.length, object });
    lines.push(`export const object${index}: ${alias} = ${body[0]}`, ...body.slice(1));
  });
  if (owners.length === 0) return problems;
  // Imports were unshifted after line numbers were taken: shift the ranges by their count.
  const shift = imported.size;
  const fileName = join(REPO_ROOT, 'deploy/test/.custom-resources.generated.ts');
  const source = lines.join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === fileName ? source : readFile(name));
  host.fileExists = (
    (exists) => (name: string) =>
      name === fileName || exists(name)
  )(host.fileExists.bind(host));
  host.getSourceFile = (name, version, onError) =>
    name === fileName ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, onError);
  const program = ts.createProgram([fileName], options, host);
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line - shift : -1;
    const owner = owners.find((o) => line >= o.start && line < o.end);
    problems.push({ object: owner ? nameOf(owner.object) : 'custom resources', message: `TS${d.code}: ${message}` });
  }
  return problems;
}

/** Every object of a rendering, built-ins against each Kubernetes version, the rest as custom resources. */
export function validateAll(objects: readonly K8sObject[], schemas: readonly KubernetesSchemas[]): Problem[] {
  const custom = objects.filter((o) => !schemas[0].isBuiltIn(o));
  const builtIn = objects.filter((o) => schemas[0].isBuiltIn(o));
  return [...builtIn.flatMap((o) => schemas.flatMap((s) => s.validate(o))), ...validateCustomResources(custom)];
}
