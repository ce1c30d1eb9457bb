import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { emailSchema, passwordSchema, projectRoleSchema, usernameSchema } from '@portal/shared/contracts/account';
import { translate } from '@portal/shared';
import { loadConfig } from './config.js';
import { migrateToLatest, openDatabase } from './db/index.js';
import { AppError } from './errors.js';
import { createMailer } from './mail/mailer.js';
import { AccountDirectory, AccountService } from './modules/account/index.js';
import { cleanupJobs, runCleanupJobs } from './jobs.js';
import { MetadataAccess, MetadataService } from './modules/metadata/index.js';
import { ImportRefusal, readRecordsFile, RecordsIoRepo, RecordsIoService } from './modules/records-io/index.js';
import { OaiIndex } from './modules/oai/index.js';
import { SearchIndex } from './modules/search/index.js';
import { createBlobStore } from './storage/index.js';

// Files and folders the portal creates are its user's only (see file-modes.ts).
process.umask(0o077);

const HELP = `Operators' tool of the Three Poles Data Portal.

Usage: npm run portal -- <command> [options]

Commands:
  create-user   Make an active account (no e-mail verification).
                --username U --email E --password P [--realname R] [--staff] [--project 0|1|2]
  migrate       Apply the database migrations (npm start does this too).
  cleanup       Remove unfinished uploads, abandoned empty drafts and expired tokens now
                (the server does this at start and regularly while it runs).
  reindex       Rebuild the public catalogue's search index from the published records
                (the server keeps it up to date by itself; this repairs or refills it).
  import-records FILE --owner USERNAME [--batch N]
                Load published records from DataCite XML (one <resource>, <resources>, or an
                OAI-PMH ListRecords reply) or from a file export-records wrote. They belong to
                USERNAME (an active staff account). A record whose DOI (or exported id) is
                already here is skipped, never overwritten. N records a transaction (200).
                Exit code 0: all imported or skipped; 1: some records refused (listed);
                2: the file or the options are wrong, and nothing was written.
  export-records FILE
                Write every published record, with its translations, keywords, authors and
                funds, as a JSON array (one record a line) that import-records reads back.
  help          Show this text (also --help).

The database is chosen as for the server: DATABASE_URL (postgres://...) or SQLite under DATA_DIR.
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function check<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } }, value: unknown, option: string): T {
  const result = schema.safeParse(value);
  if (!result.success) fail(`--${option}: ${translate('en', result.error.issues[0]!.message)}`);
  return result.data;
}

/** import-records' options and its file, read and checked as a whole. */
function readImportFile(args: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { owner: { type: 'string' }, batch: { type: 'string', default: '200' } }, allowPositionals: true, strict: true });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${HELP}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) fail(`import-records takes one FILE\n\n${HELP}`);
  if (!values.owner) fail('import-records needs --owner USERNAME: the staff account the records will belong to');
  const batch = Number(values.batch);
  if (!Number.isInteger(batch) || batch < 1 || batch > 5000) fail('--batch: a whole number from 1 to 5000');
  const file = positionals[0]!;
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8');
  } catch (error) {
    fail(`Nothing imported: cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return { file, owner: values.owner, batch, ...readRecordsFile(content) };
  } catch (error) {
    if (error instanceof ImportRefusal) fail(`Nothing imported: ${file}: ${error.message}`);
    throw error;
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP);
    return;
  }
  if (!['create-user', 'migrate', 'cleanup', 'reindex', 'import-records', 'export-records'].includes(command)) fail(`Unknown command: ${command}\n\n${HELP}`);
  // The file is read (and checked) before the database is opened: a bad file changes nothing.
  const records = command === 'import-records' ? readImportFile(rest) : undefined;

  const config = loadConfig();
  const { db, dialect } = openDatabase(config);
  try {
    const applied = await migrateToLatest(db);
    if (command === 'migrate') {
      process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
      return;
    }
    if (command === 'reindex') {
      const started = Date.now();
      const indexed = await new SearchIndex(db, dialect).rebuild();
      const items = await new OaiIndex(db).fillMissing();
      process.stdout.write(`Indexed ${indexed} published record(s) in ${((Date.now() - started) / 1000).toFixed(1)} s; ${items} new OAI-PMH item(s).\n`);
      return;
    }
    if (records) {
      const service = new RecordsIoService(new RecordsIoRepo(db, dialect), [new SearchIndex(db, dialect), new OaiIndex(db)]);
      const ownerId = await service.importOwner(records.owner);
      const started = Date.now();
      const summary = await service.importRecords(records.candidates, {
        ownerId,
        source: path.basename(records.file),
        batchSize: records.batch,
        onBatch: (done, total) => {
          if (process.stderr.isTTY) process.stderr.write(`\r${done} / ${total}`);
        },
      });
      if (process.stderr.isTTY) process.stderr.write('\n');
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(
        `Imported ${summary.imported}, skipped ${summary.skipped.length}, errors ${summary.errors.length} of ${records.candidates.length} record(s) (${records.format}) in ${seconds} s.\n`,
      );
      for (const s of summary.skipped) process.stdout.write(`  record ${s.position}: skipped: ${s.reason}\n`);
      for (const e of summary.errors) process.stdout.write(`  record ${e.position}: error: ${e.reason}\n`);
      if (summary.errors.length) process.exitCode = 1;
      return;
    }
    if (command === 'export-records') {
      const [file, ...extra] = rest;
      if (!file || extra.length) fail(`export-records takes one FILE\n\n${HELP}`);
      // Written beside the target and renamed when complete: a failed export leaves no half file.
      const partial = `${file}.partial-${process.pid}`;
      const out = fs.openSync(partial, 'w');
      try {
        const service = new RecordsIoService(new RecordsIoRepo(db, dialect), [new SearchIndex(db, dialect), new OaiIndex(db)]);
        const count = await service.exportRecords(async (chunk) => {
          fs.writeSync(out, chunk);
        });
        fs.closeSync(out);
        fs.renameSync(partial, file);
        process.stdout.write(`Exported ${count} published record(s) to ${file}.\n`);
      } catch (error) {
        fs.rmSync(partial, { force: true });
        throw error;
      }
      return;
    }
    // The mails of account creation are written, never logged here.
    const log: FastifyBaseLogger = { level: 'silent', fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, silent() {}, child: () => log };
    const accounts = new AccountService(db, createMailer({ from: config.mailFrom, dataDir: config.dataDir, log }), {
      publicUrl: config.publicUrl,
      siteVariant: config.siteVariant,
      tokenTtlDays: config.tokenTtlDays,
      passwordHashing: 'owasp',
    });
    if (command === 'cleanup') {
      const metadata = new MetadataService(db, new MetadataAccess(db), new AccountDirectory(db));
      const jobs = cleanupJobs({ accounts, metadata, storage: createBlobStore({ dataDir: config.dataDir }) });
      await runCleanupJobs(jobs, {
        info: (details: unknown) => process.stdout.write(`${JSON.stringify(details)}\n`),
        error: (details: unknown) => process.stderr.write(`${String((details as { err?: unknown }).err)}\n`),
      });
      process.stdout.write('Clean-up done.\n');
      return;
    }
    const { values } = parseArgs({
      args: rest,
      options: {
        username: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        realname: { type: 'string' },
        staff: { type: 'boolean', default: false },
        project: { type: 'string', default: '0' },
      },
      strict: true,
    });
    const user = await accounts.createActiveUser({
      username: check(usernameSchema, values.username, 'username'),
      email: check(emailSchema, values.email, 'email'),
      password: check(passwordSchema, values.password, 'password'),
      realname: values.realname,
      isStaff: values.staff,
      isProject: check(projectRoleSchema, values.project, 'project'),
    });
    process.stdout.write(`Created active user ${user.username} <${user.email}>${user.is_staff ? ', staff' : ''}, is_project ${user.is_project}.\n`);
  } catch (error) {
    if (error instanceof AppError) fail(translate('en', error.messageKey));
    if (error instanceof ImportRefusal) fail(`Nothing imported: ${error.message}`);
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) fail(`${error.message}\n\n${HELP}`);
    throw error;
  } finally {
    await db.destroy();
  }
}

await main(process.argv.slice(2));
