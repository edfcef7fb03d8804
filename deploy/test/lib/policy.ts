import { type K8sObject, nameOf, podSpecOf } from './manifests';

/**
 * The rules a platform team checks before accepting manifests. Each returns human-readable
 * violations (empty when the rendering complies), so the tests can also prove each rule fails.
 */

export interface PolicyOptions {
  /** api and gateway must run ≥ 2 replicas with anti-affinity and a PDB (not in minimal/dev). */
  readonly highAvailability: boolean;
  /** Rendered by Helm: the migration Job must be a hook (kustomize applies it as a plain Job). */
  readonly helm: boolean;
}

const HA_COMPONENTS = ['api', 'mcp-gateway'];
const component = (o: K8sObject) => o.metadata.labels?.['app.kubernetes.io/component'] ?? '';
const isTestPod = (o: K8sObject) => o.metadata.annotations?.['helm.sh/hook'] === 'test';

function containersOf(spec: any): any[] {
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
}

export function imageViolations(objects: readonly K8sObject[]): string[] {
  return objects.flatMap((o) =>
    containersOf(podSpecOf(o)).flatMap((c) => {
      const image = String(c.image ?? '');
      const [withoutDigest] = image.split('@');
      const tag = withoutDigest.includes(':') ? withoutDigest.slice(withoutDigest.lastIndexOf(':') + 1) : '';
      if (image.includes('@sha256:') && tag !== 'latest') return [];
      if (!tag || tag === 'latest') return [`${nameOf(o)} ${c.name}: image ${image} needs a pinned tag (not latest)`];
      return [];
    }),
  );
}

export function resourceViolations(objects: readonly K8sObject[]): string[] {
  return objects.flatMap((o) =>
    containersOf(podSpecOf(o)).flatMap((c) => {
      const r = c.resources ?? {};
      return r.requests?.cpu && r.requests?.memory && r.limits?.memory
        ? []
        : [`${nameOf(o)} ${c.name}: needs cpu+memory requests and a memory limit`];
    }),
  );
}

/** Long-running workloads only: Jobs and hook/test pods run to completion. */
export function probeViolations(objects: readonly K8sObject[]): string[] {
  return objects
    .filter((o) => ['Deployment', 'StatefulSet', 'DaemonSet'].includes(o.kind))
    .flatMap((o) =>
      (podSpecOf(o)?.containers ?? []).flatMap((c: any) =>
        ['livenessProbe', 'readinessProbe', 'startupProbe']
          .filter((probe) => !c[probe])
          .map((probe) => `${nameOf(o)} ${c.name}: no ${probe}`),
      ),
    );
}

export function securityViolations(objects: readonly K8sObject[]): string[] {
  return objects.flatMap((o) => {
    const spec = podSpecOf(o);
    if (!spec) return [];
    const out: string[] = [];
    const pod = spec.securityContext ?? {};
    if (spec.automountServiceAccountToken !== false)
      out.push(`${nameOf(o)}: automountServiceAccountToken must be false`);
    for (const c of containersOf(spec)) {
      const sc = c.securityContext ?? {};
      const where = `${nameOf(o)} ${c.name}`;
      if ((sc.runAsNonRoot ?? pod.runAsNonRoot) !== true) out.push(`${where}: runAsNonRoot`);
      if ((sc.runAsUser ?? pod.runAsUser) === 0) out.push(`${where}: runs as uid 0`);
      if (sc.allowPrivilegeEscalation !== false) out.push(`${where}: allowPrivilegeEscalation must be false`);
      if (sc.readOnlyRootFilesystem !== true) out.push(`${where}: readOnlyRootFilesystem must be true`);
      if (!(sc.capabilities?.drop ?? []).includes('ALL')) out.push(`${where}: must drop ALL capabilities`);
      if (sc.privileged) out.push(`${where}: privileged`);
      if ((sc.seccompProfile ?? pod.seccompProfile)?.type !== 'RuntimeDefault')
        out.push(`${where}: seccomp RuntimeDefault`);
    }
    return out;
  });
}

export function serviceAccountViolations(objects: readonly K8sObject[]): string[] {
  return objects
    .filter((o) => o.kind === 'ServiceAccount' && o.automountServiceAccountToken !== false)
    .map((sa) => `${nameOf(sa)}: automountServiceAccountToken must be false`);
}

function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

export function availabilityViolations(objects: readonly K8sObject[]): string[] {
  const deployments = objects.filter((o) => o.kind === 'Deployment' && HA_COMPONENTS.includes(component(o)));
  const out: string[] = [];
  for (const c of HA_COMPONENTS) {
    if (!deployments.some((d) => component(d) === c)) out.push(`no Deployment for ${c}`);
  }
  for (const d of deployments) {
    const labels = d.spec.template.metadata?.labels;
    const hpa = objects.find(
      (o) => o.kind === 'HorizontalPodAutoscaler' && o.spec.scaleTargetRef?.name === d.metadata.name,
    );
    const replicas = hpa ? hpa.spec.minReplicas : (d.spec.replicas ?? 1);
    if (!(replicas >= 2)) out.push(`${nameOf(d)}: ${replicas} replica(s), needs ≥ 2`);
    const anti = d.spec.template.spec.affinity?.podAntiAffinity;
    const list = (value: unknown): any[] => (Array.isArray(value) ? value : []);
    const terms = [
      ...list(anti?.requiredDuringSchedulingIgnoredDuringExecution),
      ...list(anti?.preferredDuringSchedulingIgnoredDuringExecution).map((p: any) => p.podAffinityTerm),
    ];
    if (!terms.some((t: any) => selects(t?.labelSelector?.matchLabels, labels))) {
      out.push(`${nameOf(d)}: no pod anti-affinity against its own replicas`);
    }
    const pdb = objects.find((o) => o.kind === 'PodDisruptionBudget' && selects(o.spec.selector?.matchLabels, labels));
    if (!pdb) out.push(`${nameOf(d)}: no PodDisruptionBudget`);
  }
  return out;
}

/** The migration Job runs as a Helm hook before upgrades (and around install), and cleans up. */
export function migrationHookViolations(objects: readonly K8sObject[]): string[] {
  const jobs = objects.filter((o) => o.kind === 'Job' && component(o) === 'migrate');
  if (jobs.length !== 1) return [`expected one migration Job, found ${jobs.length}`];
  const job = jobs[0];
  const a = job.metadata.annotations ?? {};
  const hooks = (a['helm.sh/hook'] ?? '').split(',');
  const out: string[] = [];
  if (!hooks.includes('pre-upgrade') || !(hooks.includes('pre-install') || hooks.includes('post-install'))) {
    out.push(`${nameOf(job)}: helm.sh/hook is "${a['helm.sh/hook'] ?? ''}", needs pre-upgrade and pre-/post-install`);
  }
  if (!(a['helm.sh/hook-delete-policy'] ?? '').includes('before-hook-creation'))
    out.push(`${nameOf(job)}: hook delete policy`);
  if (!(job.spec.backoffLimit >= 1)) out.push(`${nameOf(job)}: needs a backoffLimit ≥ 1`);
  const args = job.spec.template.spec.containers[0].args ?? [];
  if (!args.includes('migrate')) out.push(`${nameOf(job)}: does not run migrate`);
  return out;
}

/**
 * SIGTERM → the apps drain for SHUTDOWN_DRAIN_MS, then close within SHUTDOWN_TIMEOUT_MS; the pod
 * must be given longer than preStop plus both.
 */
export function terminationViolations(
  objects: readonly K8sObject[],
  shutdownTimeoutMs: number,
  shutdownDrainMs = 0,
): string[] {
  return objects
    .filter((o) => o.kind === 'Deployment' && ['api', 'mcp-gateway', 'worker'].includes(component(o)))
    .flatMap((d) => {
      const spec = d.spec.template.spec;
      const preStop = Number(spec.containers[0].lifecycle?.preStop?.exec?.command?.[1] ?? 0);
      const grace = spec.terminationGracePeriodSeconds ?? 30;
      return grace * 1000 > shutdownTimeoutMs + shutdownDrainMs + preStop * 1000
        ? []
        : [
            `${nameOf(d)}: terminationGracePeriodSeconds ${grace} ≤ preStop ${preStop}s + SHUTDOWN_DRAIN_MS ` +
              `${shutdownDrainMs} + SHUTDOWN_TIMEOUT_MS ${shutdownTimeoutMs}`,
          ];
    });
}

export function policyViolations(objects: readonly K8sObject[], options: PolicyOptions): string[] {
  const workloads = objects.filter((o) => podSpecOf(o) !== undefined && !isTestPod(o));
  return [
    ...imageViolations(objects),
    ...resourceViolations(objects),
    ...probeViolations(workloads),
    ...securityViolations(objects),
    ...serviceAccountViolations(objects),
    ...(options.highAvailability ? availabilityViolations(objects) : []),
    ...(options.helm ? migrationHookViolations(objects) : []),
  ];
}
