/**
 * What the portal writes under DATA_DIR (the SQLite database and its -wal / -shm, the mail outbox,
 * uploaded files, their folders) is for its own user only. main.ts and cli.ts also set the umask
 * to 077, for whatever else a library creates.
 */
export const PRIVATE_FOLDER = 0o700;
export const PRIVATE_FILE = 0o600;
