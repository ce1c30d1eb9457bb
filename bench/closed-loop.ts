/**
 * The closed-loop client of bench/mixed-load.ts, and what it reads of the server's process.
 */
import fs from 'node:fs';
import net from 'node:net';

/** What a process has used: RSS now (bytes) and CPU time so far (ms), from /proc. */
export function processUse(pid: number): { rss: number; cpuMs: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024, cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
}

/** A request as the client writes it, with the statuses that are a right answer. */
export interface Request {
  kind: string;
  bytes: Buffer;
  ok: readonly number[];
  /** Called with the reply's status and body when the body is wanted (basket: the new line's id). */
  keep?: (status: number, body: Buffer) => void;
}

export interface Sample {
  kind: string;
  ms: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * A closed-loop HTTP/1.1 client: one keep-alive connection per user, each sending the request
 * `next(user)` makes as soon as the last reply is whole, until the deadline. Replies are read by
 * their status line and Content-Length (or chunks), bodies counted, not decoded (but where kept).
 */
export async function closedLoop(
  port: number,
  users: number,
  seconds: number,
  next: (user: number) => Request,
): Promise<{ samples: Sample[]; errors: Record<string, number>; unfinished: Record<string, number>; seconds: number }> {
  const samples: Sample[] = [];
  const errors: Record<string, number> = {};
  const unfinished: Record<string, number> = {};
  const deadline = performance.now() + seconds * 1000;
  const open = new Map<net.Socket, () => Request | undefined>();
  const user = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      open.set(socket, () => current);
      socket.on('close', () => resolve());
      socket.setNoDelay(true);
      let head: Buffer = Buffer.alloc(0);
      let bodyLeft = -1;
      let chunked = false;
      let body: Buffer[] = [];
      let status = 0;
      let current: Request | undefined;
      let sentAt = 0;
      const send = () => {
        if (performance.now() >= deadline) {
          socket.end();
          open.delete(socket);
          return resolve();
        }
        current = next(index);
        sentAt = performance.now();
        socket.write(current.bytes);
      };
      const finish = () => {
        const request = current!;
        if (request.ok.includes(status)) samples.push({ kind: request.kind, ms: performance.now() - sentAt });
        else errors[`${request.kind} ${status}`] = (errors[`${request.kind} ${status}`] ?? 0) + 1;
        request.keep?.(status, Buffer.concat(body));
        body = [];
        send();
      };
      socket.on('data', (chunk: Buffer) => {
        let data = chunk;
        while (data.length) {
          if (bodyLeft < 0 && !chunked) {
            head = head.length ? Buffer.concat([head, data]) : data;
            const end = head.indexOf(HEADER_END);
            if (end < 0) return;
            const text = head.subarray(0, end).toString('latin1');
            status = Number(text.slice(9, 12));
            const length = /\r\ncontent-length: *(\d+)/i.exec(text);
            chunked = !length && /\r\ntransfer-encoding: *chunked/i.test(text);
            bodyLeft = length ? Number(length[1]) : 0;
            data = head.subarray(end + HEADER_END.length);
            head = Buffer.alloc(0);
            if (chunked) bodyLeft = -1;
          }
          if (chunked) {
            // Chunks are read whole from what has arrived so far (replies here are small when chunked).
            head = head.length ? Buffer.concat([head, data]) : data;
            data = Buffer.alloc(0);
            for (;;) {
              const line = head.indexOf('\r\n');
              if (line < 0) return;
              const size = parseInt(head.subarray(0, line).toString('latin1'), 16);
              if (head.length < line + 2 + size + 2) return;
              if (current?.keep) body.push(head.subarray(line + 2, line + 2 + size));
              head = head.subarray(line + 2 + size + 2);
              if (size === 0) {
                chunked = false;
                bodyLeft = -1;
                if (head.length) return reject(new Error('bytes after a chunked reply'));
                head = Buffer.alloc(0);
                finish();
                return;
              }
            }
          }
          const take = Math.min(bodyLeft, data.length);
          if (current?.keep) body.push(data.subarray(0, take));
          bodyLeft -= take;
          data = data.subarray(take);
          if (bodyLeft === 0) {
            bodyLeft = -1;
            if (data.length) return reject(new Error(`bytes after a reply that was not asked for (${current?.kind})`));
            finish();
          }
        }
      });
      socket.on('error', reject);
      socket.on('connect', send);
    });
  const started = performance.now();
  // At the deadline, a request still waiting for its reply (a sign-in queued for its hash) is left
  // unanswered and counted as unfinished: the run lasts its duration, not the longest queue.
  const cut = setTimeout(
    () => {
      for (const [socket, request] of open) {
        const kind = request()?.kind ?? 'none';
        unfinished[kind] = (unfinished[kind] ?? 0) + 1;
        socket.destroy();
      }
    },
    seconds * 1000 + 50,
  );
  await Promise.all(Array.from({ length: users }, (_, i) => user(i)));
  clearTimeout(cut);
  return { samples, errors, unfinished, seconds: Math.min(seconds, (performance.now() - started) / 1000) };
}

/**
 * Waits until the portal has finished what the last load left it (sign-ins queued for their hash
 * run on after their clients left): its CPU idle for a second, for at most 10 minutes.
 */
export async function settle(pid: number): Promise<void> {
  let last = processUse(pid).cpuMs;
  for (let waited = 0; waited < 600; waited += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = processUse(pid).cpuMs;
    if (now - last < 100) return;
    last = now;
  }
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
