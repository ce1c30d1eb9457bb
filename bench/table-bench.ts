/**
 * What the tables module's benchmarks share (bench/table-import.ts, bench/table-viewer.ts): a CSV of
 * observation rows written as a stream, and its import through the module's loader.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Portal } from '../packages/server/src/app.js';
import { createBlobStore } from '../packages/server/src/storage/index.js';
import { benchAccount } from './bench-portal.js';

/** The stations the rows cycle through; a row every ten minutes from 2000-01-01. */
export const STATIONS = 50;
export const START = Date.UTC(2000, 0, 1);
export const STEP_MS = 600_000;

/** A CSV of `rows` rows (station, time, temperature, pressure, flag), line by line as a stream: never whole in memory. Its bytes. */
export async function writeObservationsCsv(csv: string, rows: number): Promise<number> {
  function* lines() {
    yield 'station,observed_at,temperature (°C),pressure (hPa),flag\n';
    for (let i = 0; i < rows; i++) {
      const time = new Date(START + i * STEP_MS).toISOString().slice(0, 19).replace('T', ' ');
      yield `S${String(i % STATIONS).padStart(3, '0')},${time},${((i % 700) / 10 - 35).toFixed(1)},${900 + (i % 1200) / 10},${i % 97 === 0 ? 'suspect' : 'ok'}\n`;
    }
  }
  await pipeline(Readable.from(lines()), fs.createWriteStream(csv));
  return fs.statSync(csv).size;
}

/**
 * The CSV as an upload leaves it (its bytes in the BlobStore, its row in a new record's tree), made a
 * table by POST /metadata/trans/ after get-table-column's proposal; checks every row went in. Answers
 * the bench account's headers, the table's code and columns, and the import's time.
 */
export async function importObservations(portal: Portal, dataDir: string, csv: string, rows: number, title: string) {
  const { headers, post } = await benchAccount(portal);
  const record = await post('/api/metadata/metadata/', { language: 'zh-hans', title });
  const blob = await createBlobStore({ dataDir }).put(fs.createReadStream(csv), { maxBytes: Number.MAX_SAFE_INTEGER });
  const fileId = crypto.randomUUID();
  const user = await portal.database.db.selectFrom('users').select('id').where('username', '=', 'bench').executeTakeFirstOrThrow();
  await portal.database.db
    .insertInto('meta_file')
    .values({
      id: fileId,
      metadata_id: record.id,
      name: 'observations.csv',
      mime: 'text/csv',
      storage_key: blob.key,
      sha256: blob.sha256,
      size: blob.size,
      created_by: user.id,
      created_at: new Date().toISOString(),
    })
    .execute();
  const proposal = await portal.app.inject({ method: 'GET', url: `/metadata/get-table-column/?file=${fileId}&sheet=observations&header_rows=1`, headers });
  const columns = proposal.json().columns as { field: string; type: string }[];
  const started = performance.now();
  const made = await post('/metadata/trans/', { file: fileId, sheet: 'observations', header_rows: 1, table_name: 'Observations', columns });
  const importMs = performance.now() - started;
  if (made.rows !== rows || made.rejected_count !== 0) throw new Error(`imported ${made.rows} rows, ${made.rejected_count} rejected`);
  return { headers, code: made.code as string, columns, importMs };
}
