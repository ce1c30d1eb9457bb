/**
 * The ratio phases of bench/mixed-load.ts, in rounds: the record detail call against the hello world
 * (a returning visitor and new visitors), and downloads counted against uncounted.
 */
import type { ChildProcess } from 'node:child_process';
import { closedLoop, percentile, settle, type Request } from './closed-loop.js';
import { httpLoad } from './http-load.js';
import { BROWSER_AGENT } from './mixed-load-mix.js';
import { ask, USERS, type Served } from './mixed-load-serve.js';

const CRAWLER_AGENT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

export interface Ratios {
  rounds: number;
  ratioSeconds: number;
  ratioConnections: number;
  /** A CPU profile of the last round's phase (BENCH_PROFILE). */
  profiled: (what: 'start' | 'stop', name?: string) => Promise<void>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The record detail call by the lean client, each round right after the hello world (`helloPort`). */
export async function recordDetailRatio(helloPort: number, { port, records }: Served, { rounds, ratioSeconds, ratioConnections, profiled }: Ratios) {
  const host = `127.0.0.1:${port}`;
  const detailPath = (i: number) => `/api/metadata/metadata/${records[i % records.length]}/`;
  const browser = { 'user-agent': BROWSER_AGENT, 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'zh-hans' };
  const ratioRounds: { hello: number; returning: number; newVisitors: number }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    if (round === rounds - 1) await profiled('start');
    const helloLoad = await httpLoad({ url: `http://127.0.0.1:${helloPort}`, paths: ['/'], connections: ratioConnections, durationSeconds: ratioSeconds });
    const returning = await httpLoad({ url: `http://${host}`, paths: detailPath, connections: ratioConnections, durationSeconds: ratioSeconds, headers: browser });
    const newVisitors = await httpLoad({
      url: `http://${host}`,
      paths: detailPath,
      connections: ratioConnections,
      durationSeconds: ratioSeconds,
      headers: (i) => ({ ...browser, 'user-agent': `${BROWSER_AGENT} visitor/${round}.${i}` }),
    });
    if (round === rounds - 1) await profiled('stop', 'record-detail');
    ratioRounds.push({ hello: helloLoad.requestsPerSecond, returning: returning.requestsPerSecond, newVisitors: newVisitors.requestsPerSecond });
  }
  const detail = {
    route: 'GET /api/metadata/metadata/{id}/ (anonymous browser, the 200 records in turn)',
    client: 'lean keep-alive (bench/http-load.ts)',
    connections: ratioConnections,
    secondsEach: ratioSeconds,
    rounds: ratioRounds,
    returningVisitorRatio: Number(median(ratioRounds.map((r) => r.returning / r.hello)).toFixed(3)),
    newVisitorsRatio: Number(median(ratioRounds.map((r) => r.newVisitors / r.hello)).toFixed(3)),
    target: 0.35,
  };
  console.log(`record detail / hello world: returning visitor ${detail.returningVisitorRatio}, new visitors ${detail.newVisitorsRatio}`, ratioRounds);
  return detail;
}

/** Downloads by every user, counted (a browser) against uncounted (a crawler), and the counts the database got. */
export async function downloadsRatio(portal: { child: ChildProcess; served: Served }, { rounds, ratioSeconds, profiled }: Ratios) {
  const { port, users, files } = portal.served;
  const host = `127.0.0.1:${port}`;
  const { downloads: countedBefore } = await ask<{ downloads: number }>(portal.child, 'counts');
  let sequence = 0;
  const downloadBy =
    (agent: string) =>
    (user: number): Request => {
      // Each user walks the files from its own place: a repeat of a file within 30 s is rare.
      const file = files[(user * 37 + sequence++) % files.length]!;
      return {
        kind: 'download',
        bytes: Buffer.from(
          `GET /api/metadata/meta-file/${file}/download/ HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: ${agent}\r\nCookie: token=${users[user]!.token}; csrftoken=${users[user]!.csrf}\r\n\r\n`,
          'utf8',
        ),
        ok: [200],
      };
    };
  const downloadRounds: { uncounted: number; counted: number; countedP95Ms: number; uncountedP95Ms: number }[] = [];
  let countedRequests = 0;
  for (let round = 0; round < rounds; round += 1) {
    if (round === rounds - 1) await profiled('start');
    const uncounted = await closedLoop(port, USERS, ratioSeconds, downloadBy(CRAWLER_AGENT));
    if (round === rounds - 1) await profiled('stop', 'downloads-uncounted');
    await settle(portal.child.pid!);
    if (round === rounds - 1) await profiled('start');
    const counted = await closedLoop(port, USERS, ratioSeconds, downloadBy(BROWSER_AGENT));
    if (round === rounds - 1) await profiled('stop', 'downloads-counted');
    await settle(portal.child.pid!);
    // Those cut at the end reached the portal too, and count.
    countedRequests += counted.samples.length + (counted.unfinished.download ?? 0);
    const p95 = (run: typeof counted) =>
      Math.round(
        percentile(
          run.samples.map((s) => s.ms).sort((a, b) => a - b),
          95,
        ),
      );
    downloadRounds.push({
      uncounted: Math.round(uncounted.samples.length / uncounted.seconds),
      counted: Math.round(counted.samples.length / counted.seconds),
      uncountedP95Ms: p95(uncounted),
      countedP95Ms: p95(counted),
    });
  }
  const { downloads: countedAfter } = await ask<{ downloads: number }>(portal.child, 'counts');
  const downloads = {
    route: 'GET /api/metadata/meta-file/{id}/download/ (200 signed-in users, 64 KiB files)',
    uncounted: "a crawler's User-Agent (COUNTER leaves robots out), otherwise the same requests",
    rounds: downloadRounds,
    ratio: Number(median(downloadRounds.map((r) => r.counted / r.uncounted)).toFixed(3)),
    countedRequests,
    countedInDatabase: countedAfter - countedBefore,
    target: 0.8,
  };
  console.log(`downloads counted / uncounted: ${downloads.ratio}; ${downloads.countedInDatabase} counted of ${countedRequests} browser downloads`, downloadRounds);
  return downloads;
}
