import { parseArgs } from 'node:util';
import { emailSchema, passwordSchema, projectRoleSchema, usernameSchema } from '@portal/shared/contracts/account';
import { translate } from '@portal/shared';
import { loadConfig } from './config.js';
import { migrateToLatest, openDatabase } from './db/index.js';
import { AppError } from './errors.js';
import { createMailer } from './mail/mailer.js';
import { AccountRepo } from './modules/account/account.repo.js';
import { AccountService } from './modules/account/account.service.js';
import { cleanupJobs, runCleanupJobs } from './jobs.js';
import { MetadataAccess } from './modules/metadata/metadata-access.js';
import { MetadataRepo } from './modules/metadata/metadata.repo.js';
import { MetadataService } from './modules/metadata/metadata.service.js';
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

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP);
    return;
  }
  if (!['create-user', 'migrate', 'cleanup'].includes(command)) fail(`Unknown command: ${command}\n\n${HELP}`);

  const config = loadConfig();
  const { db } = openDatabase(config);
  try {
    const applied = await migrateToLatest(db);
    if (command === 'migrate') {
      process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
      return;
    }
    const log = { info() {}, warn() {}, error() {} } as never;
    const accounts = new AccountService(new AccountRepo(db), createMailer({ from: config.mailFrom, dataDir: config.dataDir, log }), {
      publicUrl: config.publicUrl,
      siteVariant: config.siteVariant,
      tokenTtlDays: config.tokenTtlDays,
    });
    if (command === 'cleanup') {
      const metadata = new MetadataService(new MetadataRepo(db), new MetadataAccess(db));
      const jobs = cleanupJobs({ accounts, metadata, storage: createBlobStore({ dataDir: config.dataDir }) });
      await runCleanupJobs(jobs, {
        info: (details: object) => process.stdout.write(`${JSON.stringify(details)}\n`),
        error: (details: object) => process.stderr.write(`${String((details as { err?: unknown }).err)}\n`),
      } as never);
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
    process.stdout.write(
      `Created active user ${user.username} <${user.email}>${user.is_staff ? ', staff' : ''}, is_project ${user.is_project}.\n`,
    );
  } catch (error) {
    if (error instanceof AppError) fail(translate('en', error.messageKey));
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) fail(`${error.message}\n\n${HELP}`);
    throw error;
  } finally {
    await db.destroy();
  }
}

await main(process.argv.slice(2));
