import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { KUSTOMIZE_DIR, type K8sObject, nameOf, parseManifests, renderChart, run, tool } from './lib/manifests';

/**
 * The kustomize base is the chart's output with its defaults and
 * `secrets.existingSecret=cairn-credentials`, made plain (no Helm labels, hooks or
 * checksums; see its ConfigMap's header). Every object in it must still say what the chart
 * says, so a change to one (a new setting, a probe, a resource) cannot silently miss the other.
 */

/** Where the two may differ on purpose, by object and path. */
const INTENDED: Record<string, Record<string, string>> = {
  // The chart runs migrations as a pre-install hook, before its regular ServiceAccount exists.
  'Job/cairn-migrate': { '.spec.template.spec.serviceAccountName': 'the chart hook has its own ServiceAccount' },
};

/** What an object does, without the bookkeeping Helm adds: names, labels, annotations. */
function behaviour(object: K8sObject): Record<string, unknown> {
  const { metadata: _metadata, ...rest } = structuredClone(object) as K8sObject & Record<string, any>;
  const template = rest.spec?.template?.metadata;
  if (template) {
    delete template.labels;
    delete template.annotations;
  }
  return rest;
}

function differences(chart: unknown, plain: unknown, path = ''): string[] {
  if (isDeepStrictEqual(chart, plain)) return [];
  const bothObjects =
    typeof chart === 'object' &&
    typeof plain === 'object' &&
    chart !== null &&
    plain !== null &&
    Array.isArray(chart) === Array.isArray(plain);
  if (!bothObjects) return [path];
  const keys = new Set([...Object.keys(chart), ...Object.keys(plain)]);
  return [...keys].flatMap((key) =>
    differences((chart as Record<string, unknown>)[key], (plain as Record<string, unknown>)[key], `${path}.${key}`),
  );
}

describe('the kustomize base against the chart', () => {
  // The base names the image by tag (cairn:0.1.0); the overlays that deploy pin it by digest.
  const chart = renderChart({
    set: { 'secrets.existingSecret': 'cairn-credentials', 'image.allowMutableTag': 'true' },
    imageByDigest: false,
  });
  const base = parseManifests(run(tool('kustomize'), ['build', join(KUSTOMIZE_DIR, 'base')]));

  it('has every object of the chart it claims to be made from', () => {
    expect(base.length).toBeGreaterThan(10);
    const rendered = new Set(chart.map(nameOf));
    expect(base.map(nameOf).filter((name) => !rendered.has(name))).toEqual([]);
  });

  it.each(base.map((object) => [nameOf(object), object] as const))('%s does what the chart renders', (name, object) => {
    const rendered = chart.find((candidate) => nameOf(candidate) === name);
    const drift = differences(behaviour(rendered!), behaviour(object)).filter((path) => !INTENDED[name]?.[path]);
    expect(drift).toEqual([]);
  });

  it('still differs where intended (so the exceptions above stay true)', () => {
    for (const [name, paths] of Object.entries(INTENDED)) {
      const rendered = chart.find((candidate) => nameOf(candidate) === name)!;
      const plain = base.find((candidate) => nameOf(candidate) === name)!;
      expect(differences(behaviour(rendered), behaviour(plain))).toEqual(Object.keys(paths));
    }
  });
});
