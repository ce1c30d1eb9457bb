import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { emailSchema, passwordSchema, projectRoleSchema, usernameSchema } from '@portal/shared/contracts/account';
import { translate } from '@portal/shared';
import type { CliCommand } from './cli-commands.js';

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

/** parseArgs' refusal (an unknown option, a missing value) as the tool's own: the message and the help. */
function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    fail(`${(error as Error).message}\n\n${HELP}`);
  }
}

/** import-records' options and its file, read as a whole (cli-commands.ts checks its content before the database is opened). */
function importCommand(args: string[]): CliCommand {
  const { values, positionals } = parsed(() =>
    parseArgs({ args, options: { owner: { type: 'string' }, batch: { type: 'string', default: '200' } }, allowPositionals: true, strict: true }),
  );
  if (positionals.length !== 1) fail(`import-records takes one FILE\n\n${HELP}`);
  if (!values.owner) fail('import-records needs --owner USERNAME: the staff account the records will belong to');
  const batch = Number(values.batch);
  if (!Number.isInteger(batch) || batch < 1 || batch > 5000) fail('--batch: a whole number from 1 to 5000');
  const file = positionals[0]!;
  try {
    return { name: 'import-records', file, owner: values.owner, batch, content: fs.readFileSync(file, 'utf8') };
  } catch (error) {
    fail(`Nothing imported: cannot read ${file}: ${(error as Error).message}`);
  }
}

function createUserCommand(args: string[]): CliCommand {
  const { values } = parsed(() =>
    parseArgs({
      args,
      options: {
        username: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        realname: { type: 'string' },
        staff: { type: 'boolean', default: false },
        project: { type: 'string', default: '0' },
      },
      strict: true,
    }),
  );
  return {
    name: 'create-user',
    user: {
      username: check(usernameSchema, values.username, 'username'),
      email: check(emailSchema, values.email, 'email'),
      password: check(passwordSchema, values.password, 'password'),
      realname: values.realname,
      isStaff: values.staff,
      isProject: check(projectRoleSchema, values.project, 'project'),
    },
  };
}

/**
 * The command line is read and checked whole before anything else is loaded: help and wrong input answer
 * at once, without the server's modules or a database, and change nothing.
 */
function commandOf(argv: string[]): CliCommand | undefined {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') return undefined;
  switch (command) {
    case 'create-user':
      return createUserCommand(rest);
    case 'import-records':
      return importCommand(rest);
    case 'export-records': {
      const [file, ...extra] = rest;
      if (!file || extra.length) fail(`export-records takes one FILE\n\n${HELP}`);
      return { name: 'export-records', file };
    }
    case 'migrate':
    case 'cleanup':
    case 'reindex':
      if (rest.length) fail(`${command} takes no options\n\n${HELP}`);
      return { name: command };
    default:
      fail(`Unknown command: ${command}\n\n${HELP}`);
  }
}

const command = commandOf(process.argv.slice(2));
if (!command) {
  process.stdout.write(HELP);
} else {
  const { CliRefusal, runCommand } = await import('./cli-commands.js');
  try {
    await runCommand(command);
  } catch (error) {
    if (error instanceof CliRefusal) fail(error.message);
    throw error;
  }
}
