import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataFile, buildUser, setRecordStatus, type Person } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, createRecord, expectStatus } from './metadata-builders.js';
import { createOrdersCast, handle, order, type OrdersCast } from './orders-builders.js';
import { upload } from './upload-builders.js';

/**
 * The FTP server inside the portal (issue 19) with real clients: curl, wget and lftp against the
 * portal's own FTP server on a free port, accounts made through the API.
 */

let portal: TestPortal;
let cast: OrdersCast;
let work: string;
let port: number;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a client to its end; its exit code instead of a throw. */
function run(command: string, args: string[], cwd = work): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

interface Account {
  username: string;
  password: string;
}

const url = (account: Account, remote = '/') => `ftp://${account.username}:${account.password}@127.0.0.1:${port}${remote}`;
const curl = (account: Account, remote: string, ...args: string[]) => run('curl', ['-sS', '--max-time', '30', ...args, url(account, remote)]);
/** lftp with few retries, no TLS (none is configured here), failing on the first failed command. */
const lftp = (account: Account, commands: string) =>
  run('lftp', [
    '-c',
    `set net:max-retries 1; set net:timeout 10; set net:reconnect-interval-base 1; set ftp:ssl-allow no; set cmd:fail-exit yes; open -u ${account.username},${account.password} -p ${port} 127.0.0.1; ${commands}`,
  ]);

/** Signs in on a raw control connection and sends `commands` as they are (a NUL or tab included); the reply line to each. */
async function rawFtp(account: Account, commands: string[]): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  const lines: string[] = [];
  let buffer = '';
  let waiting: (() => void) | undefined;
  socket.on('data', (data: Buffer) => {
    buffer += data.toString('utf8');
    let at;
    while ((at = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      // A final reply line: three digits and a space.
      if (/^\d{3} /.test(line)) {
        lines.push(line);
        waiting?.();
      }
    }
  });
  const reply = async () => {
    const count = lines.length;
    for (let i = 0; i < 200 && lines.length === count; i++) await new Promise<void>((resolve) => ((waiting = resolve), setTimeout(resolve, 50)));
    return lines[lines.length - 1]!;
  };
  const send = (command: string) => {
    socket.write(`${command}\r\n`);
    return reply();
  };
  try {
    await reply();
    await send(`USER ${account.username}`);
    expect(await send(`PASS ${account.password}`)).toMatch(/^230 /);
    const replies: string[] = [];
    for (const command of commands) replies.push(await send(command));
    return replies;
  } finally {
    socket.destroy();
  }
}

const createDownload = (person: Person | null, metadataId: string) =>
  call(portal, 'POST', '/data/download-user/', person?.token ?? null, { body: { metadata_id: metadataId }, headers: EN });
const createUpload = (person: Person | null, metadataId: string) =>
  call(portal, 'POST', '/api/data/ftp/', person?.token ?? null, { body: { metadata_id: metadataId }, headers: EN });

beforeAll(async () => {
  const pasv = randomInt(40_000, 60_000);
  portal = await createTestPortal({ env: { FTP_ENABLED: 'true', FTP_PORT: '0', FTP_HOST: '127.0.0.1', FTP_LISTEN_HOST: '127.0.0.1', FTP_PASV_PORTS: `${pasv}-${pasv + 200}` } });
  port = portal.ftpServer.endpoint()!.port;
  cast = await createOrdersCast(portal);
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-ftp-'));
}, 120_000);

afterAll(async () => {
  await portal?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

describe('POST /data/download-user/ and GET /data/ftpinfo/', () => {
  it('follows the download rule: anonymous 401, no order 403, a pending order 403, an approved order, the creator and staff 201', async () => {
    const { ids, ownerA, staff } = cast;
    const applicant = await buildUser(portal, { language: 'en' });
    expect((await createDownload(null, ids.mailA)).statusCode).toBe(401);
    const refused = await createDownload(applicant, ids.mailA);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/order|apply/i);
    const reply = await order(portal, applicant, [ids.mailA]);
    const [pending] = reply.order.orders;
    expect((await createDownload(applicant, ids.mailA)).statusCode).toBe(403);
    expectStatus(await handle(portal, ownerA.token, [pending.id], 'approved'), 200);
    const granted = expectStatus(await createDownload(applicant, ids.mailA), 201);
    expect(granted).toMatchObject({ host: '127.0.0.1', port, kind: 'download', metadata: ids.mailA });
    expect(granted.username).toMatch(/^d[0-9a-f]{12}$/);
    expect(granted.password.length).toBeGreaterThanOrEqual(24);
    // It expires with the order.
    const stored = await portal.database.db.selectFrom('orders').select('expires_at').where('id', '=', pending.id).executeTakeFirstOrThrow();
    expect(granted.expires_at).toBe(stored.expires_at);
    // The password is stored hashed (argon2id), never as given.
    const row = await portal.database.db.selectFrom('ftp_accounts').selectAll().where('username', '=', granted.username).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(granted.password);
    // ftpinfo shows it without the password.
    const info = expectStatus(await call(portal, 'GET', `/data/ftpinfo/?id=${ids.mailA}`, applicant.token, { headers: EN }), 200);
    expect(info).toEqual({
      id: granted.id,
      kind: 'download',
      metadata: ids.mailA,
      host: '127.0.0.1',
      port,
      // No certificate here: plain FTP (the FTPS case below says tls: true).
      tls: false,
      username: granted.username,
      created_at: row.created_at,
      expires_at: granted.expires_at,
    });
    for (const person of [ownerA, staff]) {
      const own = expectStatus(await createDownload(person, ids.mailA), 201);
      const days = (Date.parse(own.expires_at) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(portal.config.orderValidDays - 1);
      expect(days).toBeLessThanOrEqual(portal.config.orderValidDays);
    }
  });

  it('gives anyone signed in an account on open data, for ORDER_VALID_DAYS; a hidden record is not found', async () => {
    const { ids, ownerA } = cast;
    const someone = await buildUser(portal, { language: 'en' });
    const account = expectStatus(await createDownload(someone, ids.openA), 201);
    expect(Date.parse(account.expires_at)).toBeGreaterThan(Date.now() + (portal.config.orderValidDays - 1) * 86_400_000);
    const draft = await createRecord(portal, ownerA.token);
    expect((await createDownload(someone, draft.id)).statusCode).toBe(404);
    expect((await createDownload(someone, 'no-such-record')).statusCode).toBe(404);
    expect((await call(portal, 'POST', '/data/download-user/', someone.token, { body: {}, headers: EN })).statusCode).toBe(400);
  });

  it('keeps one account per user and record: a new one replaces the former, whose password no longer signs in', async () => {
    const { ids, other } = cast;
    const first = expectStatus(await createDownload(other, ids.openA), 201);
    const second = expectStatus(await createDownload(other, ids.openA), 201);
    const rows = await portal.database.db.selectFrom('ftp_accounts').select('id').where('user_id', '=', other.id).where('metadata_id', '=', ids.openA).execute();
    expect(rows).toEqual([{ id: second.id }]);
    expect((await curl(first, '/', '--list-only')).code).toBe(67);
    expect((await curl(second, '/', '--list-only')).stdout.trim()).toBe('openA.csv');
  });

  it('answers ftpinfo without an account with a message', async () => {
    const someone = await buildUser(portal, { language: 'en' });
    const response = await call(portal, 'GET', `/data/ftpinfo/?id=${cast.ids.mailB}`, someone.token, { headers: EN });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toMatch(/no FTP account/);
    expect((await call(portal, 'GET', `/data/ftpinfo/?id=${cast.ids.mailB}`, null)).statusCode).toBe(401);
  });
});

describe('a download account with curl, wget and lftp', () => {
  let account: Account;
  let content: Buffer;

  beforeAll(async () => {
    const { ids, staff, ownerA } = cast;
    content = randomBytes(700 * 1024);
    await buildDataFile(portal, ids.mailA, staff, { name: 'grid 2024.bin', content });
    account = expectStatus(await createDownload(ownerA, ids.mailA), 201);
  });

  it('lists the record and fetches a file whole and from an offset (curl)', async () => {
    const listing = await curl(account, '/', '--list-only');
    expect(listing.code).toBe(0);
    expect(listing.stdout.split(/\r?\n/).filter(Boolean).sort()).toEqual(['grid 2024.bin', 'mailA.csv']);
    const whole = await run('curl', ['-sS', url(account, '/grid%202024.bin'), '-o', 'whole.bin']);
    expect(whole.code).toBe(0);
    expect(sha256(await fs.readFile(path.join(work, 'whole.bin')))).toBe(sha256(content));
    const tail = await run('curl', ['-sS', '-C', '500000', url(account, '/grid%202024.bin'), '-o', 'tail.bin']);
    expect(tail.code).toBe(0);
    expect((await fs.readFile(path.join(work, 'tail.bin'))).equals(content.subarray(500000))).toBe(true);
  });

  it('fetches the whole record (wget -r)', async () => {
    const target = path.join(work, 'wget');
    await fs.mkdir(target);
    const fetched = await run('wget', ['-q', '-r', '-nH', `--ftp-user=${account.username}`, `--ftp-password=${account.password}`, `ftp://127.0.0.1:${port}/`], target);
    expect(fetched.code, fetched.stderr).toBe(0);
    expect((await fs.readdir(target)).filter((name) => !name.startsWith('.')).sort()).toEqual(['grid 2024.bin', 'mailA.csv']);
    expect(sha256(await fs.readFile(path.join(target, 'grid 2024.bin')))).toBe(sha256(content));
  });

  it('mirrors the record (lftp mirror)', async () => {
    const target = path.join(work, 'mirror-down');
    const mirrored = await lftp(account, `mirror / ${target}`);
    expect(mirrored.code, mirrored.stderr).toBe(0);
    expect((await fs.readdir(target)).sort()).toEqual(['grid 2024.bin', 'mailA.csv']);
    expect(sha256(await fs.readFile(path.join(target, 'grid 2024.bin')))).toBe(sha256(content));
  });

  it('cannot write, delete, make folders or rename', async () => {
    await fs.writeFile(path.join(work, 'new.txt'), 'new');
    expect((await curl(account, '/new.txt', '-T', path.join(work, 'new.txt'))).code).not.toBe(0);
    for (const command of ['put new.txt', 'rm mailA.csv', 'mkdir x', 'mv mailA.csv b.csv']) {
      const result = await lftp(account, command);
      expect(result.code, command).not.toBe(0);
    }
    const listing = await curl(account, '/', '--list-only');
    expect(listing.stdout.split(/\r?\n/).filter(Boolean).sort()).toEqual(['grid 2024.bin', 'mailA.csv']);
  });

  it('stays in its record: .. and absolute paths stop at its root, another record cannot be named', async () => {
    const { ids } = cast;
    const listing = (await lftp(account, 'cd /..; cd ../..; pwd; cls -1')).stdout.split(/\r?\n/).filter(Boolean);
    // lftp's pwd is the address of the folder it is in: the root.
    expect(listing[0]).toMatch(new RegExp(`@127\\.0\\.0\\.1:${port}/$`));
    expect(listing.slice(1)).toEqual(['grid 2024.bin', 'mailA.csv']);
    expect((await curl(account, '/../../etc/passwd')).code).not.toBe(0);
    expect((await lftp(account, `cd /${ids.mailB}`)).code).not.toBe(0);
    expect((await lftp(account, `get /../${ids.mailB}/mailB.csv -o ${path.join(work, 'stolen.csv')}`)).code).not.toBe(0);
    await expect(fs.stat(path.join(work, 'stolen.csv'))).rejects.toThrow();
  });

  it('is refused at login with a wrong password, once expired, and once deleted by the job', async () => {
    expect((await curl({ ...account, password: 'wrong' }, '/', '--list-only')).code).toBe(67);
    await portal.database.db
      .updateTable('ftp_accounts')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('username', '=', account.username)
      .execute();
    expect((await curl(account, '/', '--list-only')).code).toBe(67);
    expect(await portal.ftp.removeExpired()).toBeGreaterThanOrEqual(1);
    expect(await portal.database.db.selectFrom('ftp_accounts').select('id').where('username', '=', account.username).executeTakeFirst()).toBeUndefined();
    expect((await curl(account, '/', '--list-only')).code).toBe(67);
  });

  it('is refused at login once its order no longer grants the download', async () => {
    const { ids, ownerA } = cast;
    const applicant = await buildUser(portal, { language: 'en' });
    const [pending] = (await order(portal, applicant, [ids.mailA])).order.orders;
    expectStatus(await handle(portal, ownerA.token, [pending.id], 'approved'), 200);
    const granted = expectStatus(await createDownload(applicant, ids.mailA), 201);
    expect((await curl(granted, '/', '--list-only')).code).toBe(0);
    await portal.database.db
      .updateTable('orders')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', pending.id)
      .execute();
    expect((await curl(granted, '/', '--list-only')).code).toBe(67);
  });
});

describe('upload accounts: GET, POST /api/data/ftp/, DELETE /api/data/ftp/{id}/ and POST /data/sync/', () => {
  let owner: Person;
  let draftId: string;

  beforeAll(async () => {
    owner = await buildUser(portal, { language: 'en' });
    draftId = (await createRecord(portal, owner.token)).id;
  });

  it('are for the record creator and staff on a draft; others are refused', async () => {
    const { other, staff } = cast;
    expect((await createUpload(null, draftId)).statusCode).toBe(401);
    expect((await createUpload(other, draftId)).statusCode).toBe(404);
    const mine = expectStatus(await createUpload(owner, draftId), 201);
    expect(mine).toMatchObject({ kind: 'upload', metadata: draftId, host: '127.0.0.1', port, expires_at: null });
    expect(mine.username).toMatch(/^u[0-9a-f]{12}$/);
    const staffs = expectStatus(await createUpload(staff, draftId), 201);
    const list = expectStatus(await call(portal, 'GET', `/api/data/ftp/?metadata__id=${draftId}`, owner.token), 200);
    expect(list.count).toBe(2);
    expect(list.results.map((a: { id: string }) => a.id).sort()).toEqual([mine.id, staffs.id].sort());
    expect(JSON.stringify(list)).not.toContain(mine.password);
    expect((await call(portal, 'GET', `/api/data/ftp/?metadata__id=${draftId}`, other.token)).statusCode).toBe(404);
    expect((await call(portal, 'GET', `/api/data/ftp/?metadata__id=${draftId}`, null)).statusCode).toBe(401);
    expect((await call(portal, 'DELETE', `/api/data/ftp/${staffs.id}/`, other.token)).statusCode).toBe(404);
    expect((await call(portal, 'DELETE', `/api/data/ftp/${staffs.id}/`, owner.token)).statusCode).toBe(204);
    expect((await curl(staffs, '/', '--list-only')).code).toBe(67);
    // A published record's files change for nobody: someone else and its creator get 'no right', staff 'reopen it first'.
    expect((await createUpload(other, cast.ids.openA)).statusCode).toBe(403);
    expect((await createUpload(cast.ownerA, cast.ids.openA)).statusCode).toBe(403);
    expect((await createUpload(staff, cast.ids.openA)).statusCode).toBe(409);
  });

  it('take lftp mirror -R into the incoming folder; sync brings the files into the record with their SHA-256', async () => {
    const account = expectStatus(await createUpload(owner, draftId), 201);
    const source = path.join(work, 'mirror-up');
    await fs.mkdir(source);
    const contents: Record<string, Buffer> = {
      'a.nc': randomBytes(300 * 1024),
      'b.csv': Buffer.from('x,y\n1,2\n'),
      'c 冰川.bin': randomBytes(64 * 1024),
      'daily/2024/d1.nc': randomBytes(10 * 1024),
      'daily/2024/d2.nc': randomBytes(20 * 1024),
    };
    for (const [name, bytes] of Object.entries(contents)) {
      await fs.mkdir(path.dirname(path.join(source, name)), { recursive: true });
      await fs.writeFile(path.join(source, name), bytes);
    }
    const mirrored = await lftp(account, `mirror -R ${source} /`);
    expect(mirrored.code, mirrored.stderr).toBe(0);
    // Write-only: nothing comes back.
    expect((await lftp(account, `get a.nc -o ${path.join(work, 'back.nc')}`)).code).not.toBe(0);
    expect((await curl(account, '/a.nc')).code).not.toBe(0);
    // Others cannot sync it; the creator can.
    expect((await call(portal, 'POST', '/data/sync/', cast.other.token, { body: { metadata_id: draftId } })).statusCode).toBe(404);
    const synced = expectStatus(await call(portal, 'POST', '/data/sync/', owner.token, { body: { metadata_id: draftId } }), 200);
    expect(synced.count).toBe(5);
    expect(synced.refused).toEqual([]);
    const expected = Object.entries(contents).map(([name, bytes]) => ({ path: `/${name}`, size: bytes.length, sha256: sha256(bytes) }));
    expect([...synced.files].sort((a, b) => a.path.localeCompare(b.path))).toEqual(expected.sort((a, b) => a.path.localeCompare(b.path)));
    // The incoming folder is empty again: a second sync brings nothing.
    expect(expectStatus(await call(portal, 'POST', '/data/sync/', owner.token, { body: { metadata_id: draftId } }), 200).count).toBe(0);
    // The same files come back through a download account (lftp mirror).
    const down = expectStatus(await createDownload(owner, draftId), 201);
    const target = path.join(work, 'mirror-back');
    expect((await lftp(down, `mirror / ${target}`)).code).toBe(0);
    for (const [name, bytes] of Object.entries(contents)) expect(sha256(await fs.readFile(path.join(target, name)))).toBe(sha256(bytes));
    // A name taken in the tree: the file is refused with the reason and stays in the incoming folder.
    await fs.writeFile(path.join(work, 'b.csv'), 'other');
    expect((await curl(account, '/b.csv', '-T', path.join(work, 'b.csv'))).code).toBe(0);
    const again = expectStatus(await call(portal, 'POST', '/data/sync/', owner.token, { body: { metadata_id: draftId }, headers: EN }), 200);
    expect(again).toMatchObject({ count: 0, refused: [{ path: '/b.csv', detail: expect.stringMatching(/exists/) }] });
    expect((await curl(account, '/', '--list-only')).stdout.trim()).toBe('b.csv');
  });

  it('neither follow nor show links planted in the incoming folder', async () => {
    const account = expectStatus(await createUpload(owner, draftId), 201);
    const incoming = await portal.ftp.incoming.folderOf(draftId);
    await fs.symlink('/etc', path.join(incoming, 'etc-link'));
    const listing = await curl(account, '/', '--list-only');
    expect(listing.code).toBe(0);
    expect(listing.stdout).not.toContain('etc-link');
    expect((await lftp(account, 'cd etc-link')).code).not.toBe(0);
    await fs.writeFile(path.join(work, 'evil.txt'), 'evil');
    expect((await curl(account, '/etc-link/evil.txt', '-T', path.join(work, 'evil.txt'))).code).not.toBe(0);
    await expect(fs.stat('/etc/evil.txt')).rejects.toThrow();
    await fs.unlink(path.join(incoming, 'etc-link'));
  });

  it("refuse names with NUL, other control characters or a backslash ('Bad file name'), and keep '..' and absolute paths inside the incoming folder", async () => {
    const account = expectStatus(await createUpload(owner, draftId), 201);
    const incoming = await portal.ftp.incoming.folderOf(draftId);
    const outside = path.dirname(incoming);
    const before = (await fs.readdir(outside)).sort();
    const inside = (await fs.readdir(incoming)).sort();
    const replies = await rawFtp(account, ['MKD a\u0000b', 'MKD tab\tname', 'MKD back\\slash', 'MKD ../../../escaped', 'MKD /../../absolute', 'CWD ../..', 'PWD']);
    expect(replies.slice(0, 3)).toEqual(['550 Bad file name', '550 Bad file name', '550 Bad file name']);
    expect(replies[3]).toMatch(/^257 /);
    expect(replies[4]).toMatch(/^257 /);
    expect(replies[6]).toMatch(/^257 "\/"/);
    // Both folders were made at the account's root; nothing beside the record's incoming folder.
    expect((await fs.readdir(incoming)).sort()).toEqual([...inside, 'absolute', 'escaped'].sort());
    expect((await fs.readdir(outside)).sort()).toEqual(before);
    for (const name of ['absolute', 'escaped']) await fs.rmdir(path.join(incoming, name));
  });

  it('are refused at login once the record is no longer a draft', async () => {
    const account = expectStatus(await createUpload(owner, draftId), 201);
    expect((await curl(account, '/', '--list-only')).code).toBe(0);
    await setRecordStatus(portal, draftId, 'published');
    expect((await curl(account, '/', '--list-only')).code).toBe(67);
  });
});

describe('with FTP_ENABLED off', () => {
  it('creates no accounts and says why', async () => {
    const off = await createTestPortal();
    try {
      const person = await buildUser(off, { language: 'en' });
      const draft = await createRecord(off, person.token);
      const response = await call(off, 'POST', '/api/data/ftp/', person.token, { body: { metadata_id: draft.id }, headers: EN });
      expect(response.statusCode).toBe(409);
      expect(response.json().detail).toMatch(/FTP server is not running/);
      expect(off.ftpServer.endpoint()).toBeNull();
    } finally {
      await off.close();
    }
  });
});

describe('with a certificate configured (FTP_TLS_CERT, FTP_TLS_KEY)', () => {
  it('is not offered without one: a client that insists on TLS is refused', async () => {
    const account = expectStatus(await createDownload(cast.ownerA, cast.ids.openA), 201);
    expect((await curl(account, '/', '--ssl-reqd', '-k', '--list-only')).code).toBe(64);
  });

  it('serves FTPS (implicit, ftps://): curl lists and fetches over TLS, plain FTP is refused', async () => {
    const certDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-ftps-'));
    const [cert, key] = [path.join(certDir, 'cert.pem'), path.join(certDir, 'key.pem')];
    const made = await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert], certDir);
    expect(made.code, made.stderr).toBe(0);
    const pasv = randomInt(40_000, 60_000);
    const secure = await createTestPortal({
      env: {
        FTP_ENABLED: 'true',
        FTP_PORT: '0',
        FTP_HOST: '127.0.0.1',
        FTP_LISTEN_HOST: '127.0.0.1',
        FTP_PASV_PORTS: `${pasv}-${pasv + 100}`,
        FTP_TLS_CERT: cert,
        FTP_TLS_KEY: key,
      },
    });
    try {
      const owner = await buildUser(secure, { language: 'en' });
      const draft = await createRecord(secure, owner.token);
      const content = randomBytes(100 * 1024);
      expectStatus(await upload(secure, owner.token, '/metadata/upload-file/', draft.id, { filename: 'tls.bin', content }), 201);
      const account = expectStatus(await call(secure, 'POST', '/data/download-user/', owner.token, { body: { metadata_id: draft.id } }), 201);
      // The account says that its server speaks ftps:// (the web's commands are built from it).
      expect(account).toMatchObject({ tls: true, port: secure.ftpServer.endpoint()!.port });
      const at = `ftps://${account.username}:${account.password}@127.0.0.1:${secure.ftpServer.endpoint()!.port}`;
      const listed = await run('curl', ['-sS', '-k', '--list-only', `${at}/`]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout.trim()).toBe('tls.bin');
      const fetched = await run('curl', ['-sS', '-k', `${at}/tls.bin`, '-o', path.join(certDir, 'tls.bin')]);
      expect(fetched.code, fetched.stderr).toBe(0);
      expect(sha256(await fs.readFile(path.join(certDir, 'tls.bin')))).toBe(sha256(content));
      // Plain FTP is not: the password never crosses the network in clear.
      expect((await run('curl', ['-sS', '--max-time', '10', '--list-only', at.replace('ftps://', 'ftp://') + '/'])).code).not.toBe(0);
    } finally {
      await secure.close();
      await fs.rm(certDir, { recursive: true, force: true });
    }
  }, 120_000);
});
