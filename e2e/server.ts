// Starts the portal for the end-to-end run on an empty data directory: the real app as main.ts
// builds it, with the tests' cheap password hashing (buildApp's option; production's is argon2id at
// OWASP's parameters), plus one route of this process only (never in app.ts or main.ts), by which the
// specs make the active accounts an operator makes with `portal create-user`.
import fs from 'node:fs';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';

/** An account e2e/fixtures.ts asks for at POST /__e2e__/accounts (only from this machine). */
export interface E2eAccount {
  username: string;
  password: string;
  realname: string;
  staff?: boolean;
  project?: 0 | 1 | 2;
}

const dataDir = process.env.DATA_DIR;
if (!dataDir || !dataDir.endsWith('e2e')) throw new Error(`refusing to clear DATA_DIR ${dataDir}`);
fs.rmSync(dataDir, { recursive: true, force: true });

process.umask(0o077);
const config = loadConfig();
const { app, accounts } = await buildApp(config, { passwordHashing: 'fast-for-tests' });

// The operators' tool's create-user, in process: the same service's call.
app.post<{ Body: { accounts: E2eAccount[] } }>('/__e2e__/accounts', { config: { access: 'public', anonymous: true } }, async (request, reply) => {
  const from = request.socket.remoteAddress ?? '';
  if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(from)) return reply.status(403).send({ detail: 'e2e accounts are made from this machine only' });
  for (const account of request.body.accounts) {
    await accounts.createActiveUser({
      username: account.username,
      email: `${account.username}@example.org`,
      password: account.password,
      realname: account.realname,
      isStaff: account.staff ?? false,
      isProject: account.project ?? 0,
    });
  }
  return reply.status(201).send({ created: request.body.accounts.length });
});

process.once('SIGTERM', () => void app.close().finally(() => process.exit(0)));
process.once('SIGINT', () => void app.close().finally(() => process.exit(0)));
await app.listen({ port: config.port, host: config.host });
