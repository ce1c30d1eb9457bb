import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
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

/**
 * The operators' commands that work on the database, loaded by cli.ts once the command line is read and
 * checked (the server's modules take seconds to load).
 */
export type CliCommand =
  | { name: 'migrate' | 'cleanup' | 'reindex' }
  | { name: 'export-records'; file: string }
  | { name: 'import-records'; file: string; owner: string; batch: number; content: string }
  | { name: 'create-user'; user: { username: string; email: string; password: string; realname: string | undefined; isStaff: boolean; isProject: number } };

/** What the operator asked for cannot be done: the message, exit code 2, nothing changed. */
export class CliRefusal extends Error {}

export async function runCommand(command: CliCommand): Promise<void> {
  // The file is checked before the database is opened: a bad file changes nothing.
  const records = command.name === 'import-records' ? readImport(command) : undefined;
  const config = loadConfig();
  const { db, dialect } = openDatabase(config);
  try {
    const applied = await migrateToLatest(db);
    switch (command.name) {
      case 'migrate':
        process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
        return;
      case 'reindex': {
        const started = Date.now();
        const indexed = await new SearchIndex(db, dialect).rebuild();
        const items = await new OaiIndex(db).fillMissing();
        process.stdout.write(`Indexed ${indexed} published record(s) in ${((Date.now() - started) / 1000).toFixed(1)} s; ${items} new OAI-PMH item(s).\n`);
        return;
      }
      case 'import-records': {
        const file = records!;
        const service = new RecordsIoService(new RecordsIoRepo(db, dialect), [new SearchIndex(db, dialect), new OaiIndex(db)]);
        const ownerId = await service.importOwner(command.owner);
        const started = Date.now();
        const summary = await service.importRecords(file.candidates, {
          ownerId,
          source: path.basename(command.file),
          batchSize: command.batch,
          onBatch: (done, total) => {
            if (process.stderr.isTTY) process.stderr.write(`\r${done} / ${total}`);
          },
        });
        if (process.stderr.isTTY) process.stderr.write('\n');
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        process.stdout.write(
          `Imported ${summary.imported}, skipped ${summary.skipped.length}, errors ${summary.errors.length} of ${file.candidates.length} record(s) (${file.format}) in ${seconds} s.\n`,
        );
        for (const s of summary.skipped) process.stdout.write(`  record ${s.position}: skipped: ${s.reason}\n`);
        for (const e of summary.errors) process.stdout.write(`  record ${e.position}: error: ${e.reason}\n`);
        if (summary.errors.length) process.exitCode = 1;
        return;
      }
      case 'export-records': {
        // Written beside the target and renamed when complete: a failed export leaves no half file.
        const partial = `${command.file}.partial-${process.pid}`;
        const out = fs.openSync(partial, 'w');
        try {
          const service = new RecordsIoService(new RecordsIoRepo(db, dialect), [new SearchIndex(db, dialect), new OaiIndex(db)]);
          const count = await service.exportRecords(async (chunk) => {
            fs.writeSync(out, chunk);
          });
          fs.closeSync(out);
          fs.renameSync(partial, command.file);
          process.stdout.write(`Exported ${count} published record(s) to ${command.file}.\n`);
        } catch (error) {
          fs.rmSync(partial, { force: true });
          throw error;
        }
        return;
      }
    }
    // The mails of account creation are written, never logged here.
    const log: FastifyBaseLogger = { level: 'silent', fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, silent() {}, child: () => log };
    const accounts = new AccountService(db, createMailer({ from: config.mailFrom, dataDir: config.dataDir, log }), {
      publicUrl: config.publicUrl,
      siteVariant: config.siteVariant,
      tokenTtlDays: config.tokenTtlDays,
      passwordHashing: 'owasp',
    });
    if (command.name === 'cleanup') {
      const metadata = new MetadataService(db, new MetadataAccess(db), new AccountDirectory(db));
      const jobs = cleanupJobs({ accounts, metadata, storage: createBlobStore({ dataDir: config.dataDir }) });
      await runCleanupJobs(jobs, {
        info: (details: unknown) => process.stdout.write(`${JSON.stringify(details)}\n`),
        error: (details: unknown) => process.stderr.write(`${String((details as { err?: unknown }).err)}\n`),
      });
      process.stdout.write('Clean-up done.\n');
      return;
    }
    if (command.name !== 'create-user') return;
    const user = await accounts.createActiveUser(command.user);
    process.stdout.write(`Created active user ${user.username} <${user.email}>${user.is_staff ? ', staff' : ''}, is_project ${user.is_project}.\n`);
  } catch (error) {
    if (error instanceof AppError) throw new CliRefusal(translate('en', error.messageKey));
    if (error instanceof ImportRefusal) throw new CliRefusal(`Nothing imported: ${error.message}`);
    throw error;
  } finally {
    await db.destroy();
  }
}

function readImport(command: Extract<CliCommand, { name: 'import-records' }>) {
  try {
    return readRecordsFile(command.content);
  } catch (error) {
    if (error instanceof ImportRefusal) throw new CliRefusal(`Nothing imported: ${command.file}: ${error.message}`);
    throw error;
  }
}
