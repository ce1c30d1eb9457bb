/**
 * A lean HTTP/1.1 load client: `connections` keep-alive sockets, each sending the next request as
 * soon as the last reply is whole, the paths taken in turn. A reply is read by its status line and
 * Content-Length and its body only counted, never decoded.
 *
 * Why not autocannon alone: autocannon appends every reply body to a JavaScript string
 * (`req.body += chunk`). On this two-core machine the client shares the CPU with the server, and for
 * a 16 KB reply (or 4 KB of brotli, whose bytes are not UTF-8) that decoding took half of
 * autocannon's CPU profile: it measured its own limit, not the server's. With this client both the
 * hello world and the portal are measured by a client whose work per reply does not grow with the
 * reply (wrk, in C, measured about the same in a check: 0.49 for a repeated search where this client
 * measured 0.44 to 0.47).
 */
import net from 'node:net';

export interface LoadResult {
  requestsPerSecond: number;
  requests: number;
  bytesPerReply: number;
  meanLatencyMs: number;
}

export interface LoadOptions {
  /** `http://host:port` */
  url: string;
  /** The paths asked in turn, or the path of the i-th request (every request its own). */
  paths: string[] | ((i: number) => string);
  connections: number;
  durationSeconds: number;
  /** Headers of every request, or of the i-th request (every request made anew). */
  headers?: Record<string, string> | ((i: number) => Record<string, string>);
}

const HEADER_END = Buffer.from('\r\n\r\n');

export async function httpLoad({ url, paths, connections, durationSeconds, headers = {} }: LoadOptions): Promise<LoadResult> {
  const { hostname, port } = new URL(url);
  const lines = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
  const fixed = typeof headers === 'function' ? '' : lines(headers);
  const request = (p: string, extra = fixed) => Buffer.from(`GET ${p} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${extra}\r\n`, 'utf8');
  const pathAt = (i: number) => (Array.isArray(paths) ? paths[i % paths.length]! : paths(i));
  const made = Array.isArray(paths) && typeof headers !== 'function' ? paths.map((p) => request(p)) : [];
  const requestAt = made.length ? (i: number) => made[i % made.length]! : (i: number) => request(pathAt(i), typeof headers === 'function' ? lines(headers(i)) : fixed);
  const deadline = performance.now() + durationSeconds * 1000;
  let done = 0;
  let bytes = 0;
  let latencyTotal = 0;
  let next = 0;

  const connection = () =>
    new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname);
      socket.setNoDelay(true);
      let head: Buffer = Buffer.alloc(0);
      let bodyLeft = -1; // -1: reading the head
      let sentAt = 0;
      const send = () => {
        if (performance.now() >= deadline) {
          socket.end();
          return resolve();
        }
        sentAt = performance.now();
        socket.write(requestAt(next++));
      };
      const finish = () => {
        done++;
        latencyTotal += performance.now() - sentAt;
        send();
      };
      socket.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        let data = chunk;
        while (data.length) {
          if (bodyLeft < 0) {
            head = head.length ? Buffer.concat([head, data]) : data;
            const end = head.indexOf(HEADER_END);
            if (end < 0) return;
            const text = head.subarray(0, end).toString('latin1');
            const status = Number(text.slice(9, 12));
            if (status !== 200 && status !== 304) return reject(new Error(`${url}: HTTP ${status}`));
            const length = /\r\ncontent-length: *(\d+)/i.exec(text);
            if (!length && status === 200) return reject(new Error(`${url}: a reply without Content-Length`));
            bodyLeft = length ? Number(length[1]) : 0;
            data = head.subarray(end + HEADER_END.length);
            head = Buffer.alloc(0);
          }
          const take = Math.min(bodyLeft, data.length);
          bodyLeft -= take;
          data = data.subarray(take);
          if (bodyLeft === 0) {
            bodyLeft = -1;
            if (data.length) return reject(new Error(`${url}: bytes after a reply that was not asked for`));
            finish();
          }
        }
      });
      socket.on('error', reject);
      socket.on('connect', send);
    });

  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, connection));
  const seconds = (performance.now() - started) / 1000;
  return {
    requestsPerSecond: Math.round(done / seconds),
    requests: done,
    bytesPerReply: Math.round(bytes / Math.max(1, done)),
    meanLatencyMs: Number((latencyTotal / Math.max(1, done)).toFixed(3)),
  };
}
