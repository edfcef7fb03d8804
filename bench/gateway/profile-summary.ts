/**
 * Where the gateway's CPU went, from the V8 profile `npm run bench -- --only gateway
 * --gateway-profile` writes: self time by package (or first-party library) and the
 * functions with the most self and inclusive time.
 *
 * Usage: node dist/bench/gateway/profile-summary.js <file.cpuprofile> [top N]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `node_modules/@scope/name/…` → `@scope/name`; `dist/libs/x/…` → `libs/x`; node internals → `node:`. */
function bucketOf(url: string): string {
  if (!url) return '(vm / gc / idle)';
  if (url.startsWith('node:')) return 'node: ' + url.slice(5).split('/')[0];
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 13).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? url);
  }
  const dist = /dist\/(libs|apps)\/([^/]+)/.exec(url);
  if (dist) return `${dist[1]}/${dist[2]}`;
  return url;
}

function main(): void {
  const [file, topText] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top N]');
  const top = Number(topText ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...self.values()].reduce((sum, value) => sum + value, 0);
  const idleIds = new Set(
    profile.nodes.filter((node) => ['(idle)', '(program)'].includes(node.callFrame.functionName)).map((n) => n.id),
  );
  const idle = [...idleIds].reduce((sum, id) => sum + (self.get(id) ?? 0), 0);
  const busy = total - idle;
  const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;

  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of self) {
    if (idleIds.has(id)) continue;
    const node = byId.get(id);
    if (!node) continue;
    const bucket = bucketOf(node.callFrame.url);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${bucket}:${node.callFrame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }

  // Inclusive time: a node's own samples plus its subtree's, counted once per function name on a path.
  const inclusive = new Map<string, number>();
  const walk = (id: number, onPath: Set<string>): number => {
    const node = byId.get(id);
    if (!node) return 0;
    let sum = idleIds.has(id) ? 0 : (self.get(id) ?? 0);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${bucketOf(node.callFrame.url)}`;
    const fresh = !onPath.has(name);
    if (fresh) onPath.add(name);
    for (const child of node.children ?? []) sum += walk(child, onPath);
    if (fresh) {
      onPath.delete(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + sum);
    }
    return sum;
  };
  const root = profile.nodes[0];
  if (root) walk(root.id, new Set());

  const print = (title: string, entries: Map<string, number>, count: number) => {
    process.stdout.write(`\n${title}\n`);
    for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      process.stdout.write(`${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}\n`);
    }
  };
  process.stdout.write(
    `${file}\nsampled ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (percentages are of busy time)\n`,
  );
  print('self time by package', buckets, top);
  print('self time by function', functions, top);
  print('inclusive time by function', inclusive, top * 2);
}

main();
