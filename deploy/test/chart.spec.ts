import { loadConfig } from '@cairn/config';
import { CAIRN_APPS, cairnWorkloads, containerEnvironment } from './lib/environment';
import { CHART_DIR, helmArgs, type K8sObject, nameOf, renderChart, run, tool, valueSets } from './lib/manifests';
import { KUBERNETES_VERSIONS, KubernetesSchemas, validateAll } from './lib/schema';

/** `helm lint --strict` and schema validation of every rendered object, for every CI value set. */

const sets = valueSets();
const schemas = KUBERNETES_VERSIONS.map((version) => new KubernetesSchemas(version));
const rendered = new Map<string, K8sObject[]>();
const render = (name: string) => {
  if (!rendered.has(name)) rendered.set(name, renderChart({ valuesFiles: sets[name] }));
  return rendered.get(name)!;
};

describe('the Helm chart', () => {
  it('has the default values and at least four CI value sets', () => {
    expect(Object.keys(sets)).toEqual(
      expect.arrayContaining(['default', 'minimal', 'production', 'gpu-ollama', 'everything']),
    );
  });

  describe.each(Object.keys(sets))('with the %s values', (name) => {
    it('passes helm lint --strict', () => {
      expect(run(tool('helm'), ['lint', '--strict', CHART_DIR, ...helmArgs({ valuesFiles: sets[name] })])).toMatch(
        /1 chart\(s\) linted, 0 chart\(s\) failed/,
      );
    });

    it(`renders objects that validate against Kubernetes ${KUBERNETES_VERSIONS.join(' and ')} (unknown fields rejected)`, () => {
      const objects = render(name);
      expect(objects.length).toBeGreaterThan(10);
      expect(validateAll(objects, schemas)).toEqual([]);
    });
  });

  it('renders every kind it can make in the everything set', () => {
    const kinds = new Set(render('everything').map((o) => `${o.apiVersion}/${o.kind}`));
    for (const kind of [
      'apps/v1/Deployment',
      'apps/v1/StatefulSet',
      'batch/v1/Job',
      'autoscaling/v2/HorizontalPodAutoscaler',
      'policy/v1/PodDisruptionBudget',
      'networking.k8s.io/v1/NetworkPolicy',
      'networking.k8s.io/v1/Ingress',
      'gateway.networking.k8s.io/v1/HTTPRoute',
      'monitoring.coreos.com/v1/ServiceMonitor',
      'monitoring.coreos.com/v1/PrometheusRule',
      'v1/PersistentVolumeClaim',
      'v1/ServiceAccount',
      'v1/ConfigMap',
      'v1/Secret',
      'v1/Service',
      'v1/Pod',
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  it("names the gateway's public URL after the ingress host unless MCP_PUBLIC_URL is set", () => {
    const publicUrl = (set: Record<string, string>) =>
      renderChart({ set }).find((o) => o.kind === 'ConfigMap' && o.data?.API_PORT !== undefined)?.data?.MCP_PUBLIC_URL;
    expect(publicUrl({})).toBeUndefined();
    expect(publicUrl({ 'ingress.enabled': 'true', 'ingress.host': 'mem.example.org' })).toBe('http://mem.example.org');
    expect(publicUrl({ 'ingress.enabled': 'true', 'ingress.tls.enabled': 'true' })).toBe('https://cairn.example.com');
    expect(publicUrl({ 'ingress.enabled': 'true', 'config.MCP_PUBLIC_URL': 'https://x.example' })).toBe(
      'https://x.example',
    );
  });

  it('gives the api the OIDC providers as JSON it accepts, their secrets from the Secret, and its public URL', () => {
    const objects = render('everything');
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.data?.API_PORT !== undefined)!.data!;
    expect(config.API_PUBLIC_URL).toBe('https://cairn.example.com');
    const { env, names } = containerEnvironment(objects, cairnWorkloads(objects).api);
    expect(names.has('OIDC_CLIENT_SECRETS')).toBe(true);
    expect(JSON.parse(env.OIDC_CLIENT_SECRETS)).toEqual({ keycloak: 'oidc-test-not-a-real-secret' });
    const { providers } = loadConfig('api', { ...env, CAIRN_ADMIN_TOKEN: 'a'.repeat(40) }).accounts.oidc;
    expect(providers).toEqual([
      expect.objectContaining({
        id: 'keycloak',
        tenant: 'acme',
        jitUsers: true,
        clientSecret: 'oidc-test-not-a-real-secret',
      }),
    ]);
    // Without providers (the default) nothing is set, and only the api is given the secrets' key.
    const defaults = render('default');
    expect(
      defaults.find((o) => o.kind === 'ConfigMap' && o.data?.API_PORT !== undefined)!.data!.OIDC_PROVIDERS,
    ).toBeUndefined();
    const workloads = cairnWorkloads(defaults);
    expect(
      CAIRN_APPS.filter((app) =>
        containerEnvironment(defaults, workloads[app], { namesOnly: true }).names.has('OIDC_CLIENT_SECRETS'),
      ),
    ).toEqual(['api']);
  });

  it('gives the gateway the external authorization servers as JSON it accepts, and none by default', () => {
    const objects = render('everything');
    const { env } = containerEnvironment(objects, cairnWorkloads(objects)['mcp-gateway']);
    expect(loadConfig('mcp-gateway', env).mcp.authorizationServers).toEqual([
      expect.objectContaining({
        issuer: 'https://sso.example.com/realms/acme',
        audience: 'https://cairn.example.com/mcp',
        tenant: 'acme',
        groupsClaim: 'realm_access.roles',
        requiredScope: 'cairn-mcp',
      }),
    ]);
    const defaults = render('default');
    expect(
      defaults.find((o) => o.kind === 'ConfigMap' && o.data?.API_PORT !== undefined)!.data!.MCP_AUTHORIZATION_SERVERS,
    ).toBeUndefined();
  });

  it('by default embeds with the model the image carries, with memory for it in every app', () => {
    const objects = render('default');
    const workloads = cairnWorkloads(objects);
    // Resident set measured with the model loaded, plus what embedding adds at the chart's batch
    // size: one query in api and gateway, batches of 8 texts of 256 word pieces in the worker.
    const needMiB = { api: 415 + 30, 'mcp-gateway': 384 + 30, worker: 387 + 290 };
    const mebibytes = (quantity: string) => {
      const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
      expect(match).not.toBeNull();
      return Number(match![1]) * (match![2] === 'Gi' ? 1024 : 1);
    };
    for (const app of CAIRN_APPS) {
      const { env } = containerEnvironment(objects, workloads[app]);
      expect(env).toMatchObject({
        EMBEDDING_PROVIDER: 'local',
        EMBEDDING_MODELS_DIR: '/app/models',
        EMBEDDING_BATCH_SIZE: '8',
      });
      const { resources } = workloads[app].spec.template.spec.containers[0];
      expect(mebibytes(resources.requests.memory)).toBeGreaterThanOrEqual(needMiB[app]);
      expect(mebibytes(resources.limits.memory)).toBeGreaterThanOrEqual(needMiB[app] + 256);
    }
  });

  it('refuses values the schema does not know (values.schema.json is strict)', () => {
    expect(() => run(tool('helm'), ['template', 'x', CHART_DIR, '--set', 'config.LOG_LEVL=debug'])).toThrow(
      /additional properties 'LOG_LEVL' not allowed|LOG_LEVL/,
    );
    expect(() => run(tool('helm'), ['template', 'x', CHART_DIR, '--set', 'image.tag=latest'])).toThrow(/tag/);
  });
});

describe('the validator', () => {
  const everything = () => render('everything');
  const mutated = (kind: string, mutate: (o: K8sObject) => void): K8sObject => {
    const original = everything().find((o) => o.kind === kind)!;
    const copy = structuredClone(original);
    mutate(copy);
    return copy;
  };

  it.each([
    [
      'Deployment',
      (o: K8sObject) => (o.spec.template.spec.containers[0].imagePullPolicyy = 'Always'),
      /imagePullPolicyy/,
    ],
    ['HorizontalPodAutoscaler', (o: K8sObject) => (o.spec.minReplica = 2), /minReplica/],
    ['NetworkPolicy', (o: K8sObject) => (o.spec.podSelecter = {}), /podSelecter/],
    ['PodDisruptionBudget', (o: K8sObject) => (o.spec.minAvailable = { bad: true }), /minAvailable/],
    ['HTTPRoute', (o: K8sObject) => (o.spec.rules[0].backendRef = []), /backendRef/],
    ['ServiceMonitor', (o: K8sObject) => (o.spec.endpoints[0].intervall = '30s'), /intervall/],
    ['PrometheusRule', (o: K8sObject) => (o.spec.groups[0].rules[0].expression = 'up'), /expression/],
  ])('catches a typo in a %s', (kind, mutate, field) => {
    const problems = validateAll([mutated(kind, mutate)], schemas);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.map((p) => `${p.object}: ${p.message}`).join('\n')).toMatch(field);
  });

  it('catches a missing required field and an unknown kind', () => {
    const job = mutated('Job', (o) => delete o.spec.template);
    const odd = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };
    const problems = validateAll([job, odd], schemas).map((p) => `${p.object}: ${p.message}`);
    expect(problems.join('\n')).toMatch(/Job\/.*template/);
    expect(problems.join('\n')).toMatch(/Widget\/w: no schema/);
    expect(nameOf(job)).toMatch(/^Job\//);
  });
});
