import { environmentSchema, requiredByApp } from '@cairn/config';
import { CAIRN_APPS, cairnWorkloads, containerEnvironment } from './lib/environment';
import { buildOverlay, OVERLAYS } from './lib/manifests';
import { policyViolations } from './lib/policy';
import { KUBERNETES_VERSIONS, KubernetesSchemas, validateAll } from './lib/schema';

/** `kustomize build` of every overlay: schema-valid, policy-compliant, config in parity with the apps. */

const schemas = KUBERNETES_VERSIONS.map((version) => new KubernetesSchemas(version));
const SCHEMA_KEYS = new Set(Object.keys(environmentSchema.shape));

describe.each(OVERLAYS)('the %s overlay', (overlay) => {
  const objects = buildOverlay(overlay);

  it('builds objects that validate against the Kubernetes schemas (unknown fields rejected)', () => {
    expect(objects.length).toBeGreaterThan(10);
    expect(validateAll(objects, schemas)).toEqual([]);
  });

  it('passes the policy checks', () => {
    expect(policyViolations(objects, { highAvailability: overlay !== 'dev', helm: false })).toEqual([]);
  });

  it('sets only variables the apps read, and all each app requires', () => {
    const workloads = cairnWorkloads(objects);
    for (const app of [...CAIRN_APPS, 'migrate' as const]) {
      // dev generates its Secret, so its values resolve; the others name the operator's Secret.
      const { names, env } = containerEnvironment(objects, workloads[app], { namesOnly: overlay !== 'dev' });
      expect([...names].filter((n) => !SCHEMA_KEYS.has(n))).toEqual([]);
      expect(requiredByApp[app].filter((n) => !names.has(n))).toEqual([]);
      if (overlay === 'dev') expect(requiredByApp[app].filter((n) => !env[n])).toEqual([]);
    }
  });
});

describe('overlay specifics', () => {
  const kinds = (overlay: string) => buildOverlay(overlay).map((o) => `${o.kind}/${o.metadata.name}`);

  it('dev runs PostgreSQL and Redis in the cluster, one replica each', () => {
    const objects = buildOverlay('dev');
    expect(kinds('dev')).toEqual(expect.arrayContaining(['StatefulSet/cairn-postgresql', 'StatefulSet/cairn-redis']));
    expect(objects.filter((o) => o.kind === 'Deployment').map((d) => d.spec.replicas)).toEqual([1, 1, 1]);
  });

  it('production autoscales and keeps replicas on distinct nodes', () => {
    const objects = buildOverlay('production');
    expect(objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toHaveLength(3);
    for (const d of objects.filter((o) => o.kind === 'Deployment')) {
      expect(d.spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution).toHaveLength(
        1,
      );
    }
  });

  it('gpu adds Ollama with a GPU limit on the GPU pool and points the apps at it', () => {
    const objects = buildOverlay('gpu');
    const ollama = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'cairn-ollama')!;
    const spec = ollama.spec.template.spec;
    expect(spec.containers[0].resources.limits['nvidia.com/gpu']).toBe(1);
    expect(spec.tolerations).toEqual([expect.objectContaining({ key: 'nvidia.com/gpu' })]);
    expect(spec.initContainers[0].name).toBe('pull-models');
    const config = objects.find((o) => o.kind === 'ConfigMap')!;
    expect(config.data).toEqual(
      expect.objectContaining({
        EMBEDDING_PROVIDER: 'ollama',
        EMBEDDING_BATCH_SIZE: '32',
        OLLAMA_URL: 'http://cairn-ollama:11434',
      }),
    );
  });
});
