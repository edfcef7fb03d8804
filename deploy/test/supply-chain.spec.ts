import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildOverlay, CHART_DIR, type K8sObject, podSpecOf, renderChart, REPO_ROOT, run, tool } from './lib/manifests';
import { throwawaySigningKey } from './lib/signing-key';

/**
 * The supply chain of a release: the apps' image pulled by digest from the chart and the
 * kustomize overlays, and the chart packaged with provenance signed by the operator's key.
 */

const DIGEST = /^sha256:[a-f0-9]{64}$/;
const chartVersion = (parse(readFileSync(join(CHART_DIR, 'Chart.yaml'), 'utf8')) as { version: string }).version;

/** The image of every Cairn container (api, gateway, worker, migrate), by workload. */
function cairnImages(objects: K8sObject[]): string[] {
  return objects.flatMap((o) =>
    (podSpecOf(o)?.containers ?? [])
      .map((c: { image: string }) => c.image)
      .filter((image: string) => /(^|\/)cairn[@:]/.test(image)),
  );
}

describe('the image, by digest', () => {
  it('the chart pulls repository@digest for every app and the migration', () => {
    const digest = `sha256:${'ab'.repeat(32)}`;
    const images = cairnImages(
      renderChart({ set: { 'image.repository': 'registry.example.com/cairn', 'image.digest': digest } }),
    );
    expect(images.length).toBeGreaterThanOrEqual(4);
    expect(new Set(images)).toEqual(new Set([`registry.example.com/cairn@${digest}`]));
  });

  it('the chart refuses a tag alone, saying how to get the digest, unless allowMutableTag', () => {
    expect(() => renderChart({ set: { 'image.tag': '0.1.0' }, imageByDigest: false })).toThrow(
      /image\.digest is required: .*docker push.*crane digest.*image\.allowMutableTag=true/,
    );
    const images = cairnImages(
      renderChart({ set: { 'image.tag': '0.1.0', 'image.allowMutableTag': 'true' }, imageByDigest: false }),
    );
    expect(new Set(images)).toEqual(new Set(['cairn:0.1.0']));
    // A digest that is not a sha256 is refused by values.schema.json.
    expect(() => renderChart({ set: { 'image.digest': 'sha256:short' } })).toThrow(/digest/);
  });

  it.each(['production', 'gpu'])('the %s overlay pulls the image by digest', (overlay) => {
    const images = cairnImages(buildOverlay(overlay));
    expect(images.length).toBeGreaterThanOrEqual(4);
    for (const image of images) {
      const [name, digest] = image.split('@');
      expect(name).toBe('registry.example.com/platform/cairn');
      expect(digest).toMatch(DIGEST);
    }
  });
});

describe('the chart, signed with provenance', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-chart-sign-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const packageChart = (args: string[]) =>
    execFileSync(join(REPO_ROOT, 'scripts/package-chart.sh'), args, { encoding: 'utf8', stdio: 'pipe' });

  it('scripts/package-chart.sh signs with the given key and verifies; a changed chart or another key fails', () => {
    const key = throwawaySigningKey(join(dir, 'operator'), 'Cairn CI chart signing');
    const out = join(dir, 'chart');
    const output = packageChart([
      '--key',
      key.name,
      '--keyring',
      key.secring,
      '--out',
      out,
      '--verify-keyring',
      key.pubring,
    ]);
    const chart = join(out, `cairn-${chartVersion}.tgz`);
    expect(output).toContain(`signed and verified: ${chart}`);
    const provenance = readFileSync(`${chart}.prov`, 'utf8');
    expect(provenance).toMatch(/^-----BEGIN PGP SIGNED MESSAGE-----/);
    expect(provenance).toContain(`cairn-${chartVersion}.tgz: sha256:`);
    // What users run: helm verify with the published public key.
    expect(run(tool('helm'), ['verify', chart, '--keyring', key.pubring])).toMatch(/Signed by: Cairn CI chart signing/);

    const stranger = throwawaySigningKey(join(dir, 'stranger'), 'Someone else');
    expect(() => run(tool('helm'), ['verify', chart, '--keyring', stranger.pubring])).toThrow(/failed/);
    appendFileSync(chart, 'tampered');
    expect(() => run(tool('helm'), ['verify', chart, '--keyring', key.pubring])).toThrow(/sha256 sum does not match/);
  });

  it('refuses to run without a key, naming how to make the keyring', () => {
    expect(() => packageChart(['--key', 'x'])).toThrow(/usage: /);
    const missing = join(dir, 'none.gpg');
    expect(() => packageChart(['--key', 'x', '--keyring', missing])).toThrow(
      /no keyring at .*gpg --export-secret-keys/,
    );
    expect(existsSync(join(dir, 'chart-none'))).toBe(false);
  });
});
