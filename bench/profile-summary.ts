/**
 * Where a V8 CPU profile (`node --cpu-prof`, e.g. `BENCH_PROFILE=dir tsx bench/mixed-load.ts`) spent
 * its time: the functions with the most self time, the packages and files, and (with --under NAME) the
 * total time of the calls under each function whose name holds NAME.
 *
 *   tsx bench/profile-summary.ts dir/CPU.*.cpuprofile [--top 40] [--under handler]
 */
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const top = Number(option('--top') ?? 40);
const under = option('--under');
const profile = JSON.parse(fs.readFileSync(args[0]!, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (n: Node) => {
  const url = n.callFrame.url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\//, 'nm:')
    .replace(/^.*\/work\/main\//, '');
  return `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
};
const groupOf = (n: Node) => {
  const url = n.callFrame.url;
  if (!url) return n.callFrame.functionName.startsWith('(') ? n.callFrame.functionName : '(native)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  if (url.startsWith('node:')) return url;
  return url.replace(/^.*\/work\/main\//, '').replace(/^file:\/\//, '');
};
const sum = (key: (n: Node) => string) => {
  const out = new Map<string, number>();
  for (const [id, us] of self) {
    const k = key(byId.get(id)!);
    out.set(k, (out.get(k) ?? 0) + us);
  }
  return [...out.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
};
const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
console.log(`total ${(total / 1e6).toFixed(1)} s of samples`);
console.log('\n-- self time by function --');
for (const [k, us] of sum(where)) console.log(pct(us), k);
console.log('\n-- self time by package or file --');
for (const [k, us] of sum(groupOf)) console.log(pct(us), k);

if (under) {
  // Total (inclusive) time of each matching function, counted once per sample however deep it recurs.
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at)!;
      const k = where(node);
      if (!seen.has(k) && (node.callFrame.functionName.includes(under) || node.callFrame.url.includes(under))) {
        seen.add(k);
        inclusive.set(k, (inclusive.get(k) ?? 0) + us);
      }
    }
  }
  console.log(`\n-- total time under functions or files matching ${under} --`);
  for (const [k, us] of [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(pct(us), k);
}
