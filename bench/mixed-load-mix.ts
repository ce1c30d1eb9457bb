/**
 * The mix of bench/mixed-load.ts: each user's next request, its kind drawn by weight (the same
 * sequence every run), and the phase that runs it on the portal and sums it up by kind.
 */
import { closedLoop, percentile, processUse, settle, type Request } from './closed-loop.js';
import { PASSWORD, USERS, type Served } from './mixed-load-serve.js';
import { CHINESE_QUERIES, ENGLISH_QUERIES, random } from './search-catalogue.js';

export const BROWSER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

const KINDS = ['home', 'search', 'landing', 'hot', 'login', 'basket', 'download'] as const;
type Kind = (typeof KINDS)[number];
const MIX: Record<Kind, number> = { home: 18, search: 25, landing: 20, hot: 10, login: 5, basket: 10, download: 10 };

/** The requests of each kind, for the portal at `host` with what it serves: user -> their next request. */
function requestsOf(host: string, { users, records, files }: Served): (user: number) => Request {
  const rand = random(20261201);
  const words = [...CHINESE_QUERIES, ...ENGLISH_QUERIES];
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const base = (user: number, language: string, extra = '') =>
    `Host: ${host}\r\nUser-Agent: ${BROWSER_AGENT}\r\nAccept-Language: ${language}\r\nCookie: token=${users[user]!.token}; csrftoken=${users[user]!.csrf}\r\n${extra}`;
  const get = (kind: string, target: string, user: number, language: string, extra = '', ok: readonly number[] = [200]): Request => ({
    kind,
    bytes: Buffer.from(`GET ${target} HTTP/1.1\r\n${base(user, language, extra)}\r\n`, 'utf8'),
    ok,
  });
  const withBody = (kind: string, method: string, target: string, user: number, body: string, ok: readonly number[], extra = ''): Request => ({
    kind,
    bytes: Buffer.from(
      `${method} ${target} HTTP/1.1\r\n${base(user, 'zh-hans', `X-CSRFToken: ${users[user]!.csrf}\r\nOrigin: http://${host}\r\n${extra}`)}${body ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`,
      'utf8',
    ),
    ok,
  });
  const basketLines = new Map<number, string>();
  const weights = KINDS.map((k) => MIX[k]);
  const total = weights.reduce((a, b) => a + b, 0);
  const drawKind = (): Kind => {
    let at = rand() * total;
    for (const [i, kind] of KINDS.entries()) if ((at -= weights[i]!) < 0) return kind;
    return KINDS[0];
  };
  const requestOf = (kind: Kind, user: number): Request => {
    const language = rand() < 0.7 ? 'zh-hans' : 'en';
    switch (kind) {
      case 'home':
        return get('home', language === 'en' ? '/en/' : '/', user, language, 'Accept: text/html,application/xhtml+xml,*/*;q=0.8\r\nAccept-Encoding: gzip, deflate, br\r\n');
      case 'search': {
        const q = rand() < 0.3 ? `${pick(words)} ${pick(words)}` : pick(words);
        const page = 1 + Math.floor(rand() * 3);
        return get(
          'search',
          `/api/metadata/search/?q=${encodeURIComponent(q)}&page=${page}&_r=${Math.floor(rand() * 1e9)}`,
          user,
          language,
          'Accept-Encoding: gzip, deflate, br\r\n',
        );
      }
      case 'landing':
        return get('landing', `/api/metadata/metadata/${pick(records)}/`, user, language, 'Accept-Encoding: gzip, deflate, br\r\n');
      case 'hot':
        return get('hot', '/api/metadata/hot/', user, language, 'Accept-Encoding: gzip, deflate, br\r\n');
      case 'login':
        return withBody('login', 'POST', '/account/profile-login/', user, JSON.stringify({ username: users[user]!.username, password: PASSWORD }), [200]);
      case 'basket': {
        const line = basketLines.get(user);
        if (line) {
          basketLines.delete(user);
          return withBody('basket', 'DELETE', `/api/account/line_item/${line}/`, user, '', [204]);
        }
        const request = withBody('basket', 'POST', '/api/account/line_item/', user, JSON.stringify({ metadata_id: pick(records) }), [201, 409]);
        request.keep = (status, body) => {
          if (status === 201) basketLines.set(user, (JSON.parse(body.toString('utf8')) as { id: string }).id);
        };
        return request;
      }
      case 'download':
        return get('download', `/api/metadata/meta-file/${pick(files)}/download/`, user, language);
    }
  };
  return (user) => requestOf(drawKind(), user);
}

/** The mix on the portal (`pid`, `served`) for `duration` seconds after a warm-up of five: by kind, the portal's RSS and CPU. */
export async function runMix(pid: number, served: Served, duration: number, profiled: (what: 'start' | 'stop', name?: string) => Promise<void>) {
  const { port } = served;
  const next = requestsOf(`127.0.0.1:${port}`, served);
  const warm = await closedLoop(port, USERS, 5, next);
  await settle(pid);
  console.log(`warm-up: ${warm.samples.length} requests`);
  const before = processUse(pid);
  let peakRss = before.rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, processUse(pid).rss);
  }, 250);
  await profiled('start');
  const mix = await closedLoop(port, USERS, duration, next);
  await profiled('stop', 'mix');
  clearInterval(sampler);
  const after = processUse(pid);
  await settle(pid);
  const kinds = KINDS.map((kind) => {
    const times = mix.samples
      .filter((s) => s.kind === kind)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    return {
      kind,
      share: MIX[kind],
      requests: times.length,
      unfinishedAtEnd: mix.unfinished[kind] ?? 0,
      requestsPerSecond: Math.round(times.length / mix.seconds),
      p50Ms: Math.round(percentile(times, 50)),
      p95Ms: Math.round(percentile(times, 95)),
      p99Ms: Math.round(percentile(times, 99)),
      targetP95Ms: kind === 'login' ? null : 500,
    };
  });
  const mixed = {
    users: USERS,
    durationSeconds: duration,
    requestsPerSecond: Math.round(mix.samples.length / mix.seconds),
    errors: mix.errors,
    unfinishedAtEnd: mix.unfinished,
    kinds,
    portalRssBytes: { start: before.rss, peak: peakRss, end: after.rss },
    portalCpuMsPerRequest: Number(((after.cpuMs - before.cpuMs) / Math.max(1, mix.samples.length)).toFixed(3)),
  };
  console.log(
    `mix: ${mixed.requestsPerSecond} req/s, RSS peak ${(peakRss / 2 ** 20).toFixed(0)} MiB, errors ${JSON.stringify(mix.errors)}, unfinished at the end ${JSON.stringify(mix.unfinished)}`,
  );
  for (const k of kinds)
    console.log(
      `  ${k.kind.padEnd(9)} ${String(k.requests).padStart(6)} req  p50 ${String(k.p50Ms).padStart(5)} ms  p95 ${String(k.p95Ms).padStart(5)} ms  p99 ${String(k.p99Ms).padStart(5)} ms`,
    );
  return mixed;
}
