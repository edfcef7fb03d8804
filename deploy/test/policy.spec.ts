import { randomBytes } from 'node:crypto';
import { CAIRN_APPS, cairnWorkloads, containerEnvironment } from './lib/environment';
import { type K8sObject, renderChart, valueSets } from './lib/manifests';
import {
  availabilityViolations,
  imageViolations,
  migrationHookViolations,
  policyViolations,
  probeViolations,
  resourceViolations,
  securityViolations,
  terminationViolations,
} from './lib/policy';

/** Policy checks on every CI value set, and proof that each rule catches what it is for. */

const sets = valueSets();
const rendered = Object.fromEntries(
  Object.entries(sets).map(([name, files]) => [name, renderChart({ valuesFiles: files })]),
);
const singleReplica = new Set(['minimal']);

describe.each(Object.keys(sets))('chart policy with the %s values', (name) => {
  it('probes, resources, hardened security contexts, pinned images, HA for api/gateway, migration hook', () => {
    expect(policyViolations(rendered[name], { highAvailability: !singleReplica.has(name), helm: true })).toEqual([]);
  });

  it('gives pods longer to stop than the apps take to drain', () => {
    const config = rendered[name].find((o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('cairn'))!;
    expect(
      terminationViolations(
        rendered[name],
        Number(config.data.SHUTDOWN_TIMEOUT_MS),
        Number(config.data.SHUTDOWN_DRAIN_MS ?? 0),
      ),
    ).toEqual([]);
  });
});

describe('chart policy details', () => {
  it('uses a post-install hook only with the in-chart PostgreSQL (it must exist before migrating)', () => {
    const hookOf = (objects: K8sObject[]) =>
      objects.find((o) => o.kind === 'Job')!.metadata.annotations!['helm.sh/hook'];
    expect(hookOf(rendered.production)).toBe('pre-install,pre-upgrade');
    expect(hookOf(rendered.everything)).toBe('post-install,pre-upgrade');
  });

  it('makes the migration Job secret available at hook time', () => {
    for (const name of ['default', 'production', 'everything']) {
      const objects = rendered[name];
      const job = objects.find((o) => o.kind === 'Job')!;
      const ref = job.spec.template.spec.containers[0].env.find((e: any) => e.name === 'DATABASE_URL').valueFrom
        .secretKeyRef;
      const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === ref.name);
      if (name === 'production') {
        expect(secret).toBeUndefined(); // the operator's existingSecret, there before install
        expect(ref).toEqual({ name: 'cairn-credentials', key: 'database-url' });
      } else {
        const hook = secret!.metadata.annotations!['helm.sh/hook'];
        expect(hook).toBe(job.metadata.annotations!['helm.sh/hook']);
        expect(Number(secret!.metadata.annotations!['helm.sh/hook-weight'])).toBeLessThan(
          Number(job.metadata.annotations!['helm.sh/hook-weight']),
        );
      }
    }
  });

  it('lets the helm test pod reach the gateway when ingress sources are restricted', () => {
    const test = rendered.production.find((o) => o.kind === 'Pod')!;
    const policy = rendered.production.find(
      (o) => o.kind === 'NetworkPolicy' && o.metadata.name.endsWith('mcp-gateway'),
    )!;
    const peers = policy.spec.ingress[0].from as { podSelector?: { matchLabels: Record<string, string> } }[];
    expect(
      peers.some(
        (p) =>
          p.podSelector && Object.entries(p.podSelector.matchLabels).every(([k, v]) => test.metadata.labels![k] === v),
      ),
    ).toBe(true);
  });

  it('gives the apps the previous master key only while a rotation sets it, and never to the migration', () => {
    const current = randomBytes(32).toString('hex');
    const previous = randomBytes(32).toString('hex');
    const rotating = renderChart({
      valuesFiles: sets.minimal,
      set: { 'secrets.masterKey': current, 'secrets.previousMasterKey': previous },
    });
    const workloads = cairnWorkloads(rotating);
    for (const app of CAIRN_APPS) {
      expect(containerEnvironment(rotating, workloads[app]).env).toMatchObject({
        CAIRN_MASTER_KEY: current,
        CAIRN_MASTER_KEY_PREVIOUS: previous,
      });
      // Outside a rotation the reference is optional and resolves to nothing.
      const usual = rendered.minimal;
      expect(containerEnvironment(usual, cairnWorkloads(usual)[app]).env.CAIRN_MASTER_KEY_PREVIOUS).toBeUndefined();
    }
    expect(
      containerEnvironment(rotating, workloads.migrate, { namesOnly: true }).names.has('CAIRN_MASTER_KEY_PREVIOUS'),
    ).toBe(false);
    expect(() => renderChart({ valuesFiles: sets.minimal, set: { 'secrets.previousMasterKey': 'not-a-key' } })).toThrow(
      /previousMasterKey/,
    );
  });

  it('gives only the worker egress to web servers (port 80, public ranges), for kb_fetch', () => {
    let checked = 0;
    for (const name of Object.keys(sets)) {
      const policies = rendered[name].filter((o) => o.kind === 'NetworkPolicy');
      if (policies.length === 0) continue; // a value set with network policies off
      const egressPorts = (suffix: string) =>
        (policies.find((o) => o.metadata.name.endsWith(suffix))?.spec.egress ?? []).flatMap(
          (rule: { ports?: { port: number }[] }) => (rule.ports ?? []).map((p) => p.port),
        );
      expect(egressPorts('-worker')).toContain(80);
      for (const app of ['-api', '-mcp-gateway', '-migrate']) expect(egressPorts(app)).not.toContain(80);
      const web = policies
        .find((o) => o.metadata.name.endsWith('-worker'))!
        .spec.egress.find((rule: { ports?: { port: number }[] }) => rule.ports?.some((p) => p.port === 80));
      const excluded = web.to.flatMap((peer: { ipBlock: { except: string[] } }) => peer.ipBlock.except);
      expect(excluded).toEqual(expect.arrayContaining(['10.0.0.0/8', '169.254.0.0/16', '127.0.0.0/8', 'fc00::/7']));
      checked += 1;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('derives terminationGracePeriodSeconds from SHUTDOWN_TIMEOUT_MS and SHUTDOWN_DRAIN_MS', () => {
    const objects = renderChart({
      valuesFiles: sets.minimal,
      set: { 'config.SHUTDOWN_TIMEOUT_MS': '60000', 'config.SHUTDOWN_DRAIN_MS': '20000' },
    });
    expect(terminationViolations(objects, 60_000, 20_000)).toEqual([]);
    const api = objects.find((o) => o.kind === 'Deployment')!;
    expect(api.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(80);
  });
});

describe('each policy rule fails on what it forbids', () => {
  const base = () => structuredClone(rendered.production);
  const deployment = (objects: K8sObject[], component: string) =>
    objects.find((o) => o.kind === 'Deployment' && o.metadata.labels?.['app.kubernetes.io/component'] === component)!;

  it('no probes', () => {
    const objects = base();
    delete deployment(objects, 'worker').spec.template.spec.containers[0].readinessProbe;
    expect(probeViolations(objects)).toEqual([expect.stringMatching(/worker.*no readinessProbe/)]);
  });

  it('no resources', () => {
    const objects = base();
    delete deployment(objects, 'api').spec.template.spec.containers[0].resources.limits;
    expect(resourceViolations(objects)).toHaveLength(1);
  });

  it('a writable root filesystem, kept capabilities, token automount', () => {
    const objects = base();
    const pod = deployment(objects, 'mcp-gateway').spec.template.spec;
    pod.containers[0].securityContext.readOnlyRootFilesystem = false;
    pod.containers[0].securityContext.capabilities.drop = [];
    pod.automountServiceAccountToken = true;
    expect(securityViolations(objects)).toHaveLength(3);
  });

  it('latest or untagged images', () => {
    const objects = base();
    deployment(objects, 'api').spec.template.spec.containers[0].image = 'cairn:latest';
    deployment(objects, 'worker').spec.template.spec.containers[0].image = 'cairn';
    expect(imageViolations(objects)).toHaveLength(2);
  });

  it('a single gateway replica, no anti-affinity, no PDB', () => {
    const objects = base().filter((o) => o.kind !== 'HorizontalPodAutoscaler' && o.kind !== 'PodDisruptionBudget');
    const gateway = deployment(objects, 'mcp-gateway');
    gateway.spec.replicas = 1;
    delete gateway.spec.template.spec.affinity;
    const found = availabilityViolations(objects).join('\n');
    expect(found).toMatch(/mcp-gateway: 1 replica/);
    expect(found).toMatch(/mcp-gateway: no pod anti-affinity/);
    expect(found).toMatch(/mcp-gateway: no PodDisruptionBudget/);
  });

  it('a migration Job that is not a hook', () => {
    const objects = base();
    delete objects.find((o) => o.kind === 'Job')!.metadata.annotations!['helm.sh/hook'];
    expect(migrationHookViolations(objects)).toEqual([expect.stringMatching(/helm.sh\/hook/)]);
  });

  it('a grace period with no room for the drain before the shutdown deadline', () => {
    expect(terminationViolations(base(), 25_000, 10_000)).toHaveLength(3);
  });

  it('a grace period shorter than the shutdown deadline', () => {
    expect(terminationViolations(base(), 120_000)).toHaveLength(3);
  });
});
