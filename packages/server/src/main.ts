import { buildApp } from './app.js';
import { loadConfig } from './config.js';

// Files and folders the portal creates are its user's only (see file-modes.ts).
process.umask(0o077);

const config = loadConfig();
const { app } = await buildApp(config);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

await app.listen({ port: config.port, host: config.host });
app.log.info(
  { database: config.databaseUrl ? 'postgresql' : `sqlite in ${config.dataDir}`, mail: config.smtpUrl ? 'smtp' : `${config.dataDir}/mail` },
  `portal ready on ${config.publicUrl}`,
);
