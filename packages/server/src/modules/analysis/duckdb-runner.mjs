// The analysis sandbox's child process (issue 20): runs one method's query in DuckDB and exits.
// Plain JavaScript so that it starts without a TypeScript loader (sandbox.ts forks it per run).
// The parent sends one message, {sql, parameters, views, limits}; the child answers one,
// {columns, rows} or {error: {key, params}}, and the parent kills it if it outlasts the time limit.
import { DuckDBDecimalValue, DuckDBInstance, StatementType, BIGINT, BOOLEAN, DATE, DOUBLE, VARCHAR, dateValue } from '@duckdb/node-api';

/** The bound types of a method's parameter types: values are bound, never spliced into the text. */
const BOUND_TYPES = { number: DOUBLE, integer: BIGINT, string: VARCHAR, date: DATE, boolean: BOOLEAN };
/** Readers of the portal's tabular files, by format: the portal names the path, never the user's SQL. */
const READERS = { csv: 'read_csv', parquet: 'read_parquet' };

const quoteIdentifier = (name) => `"${name.replaceAll('"', '""')}"`;
const quoteString = (text) => `'${text.replaceAll("'", "''")}'`;

class Refusal extends Error {
  constructor(key, params = {}) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

/** A value as JSON carries it: big integers as numbers while exact, decimals as numbers, dates and other DuckDB values as their text. */
function plain(value) {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  if (value instanceof DuckDBDecimalValue) return value.toDouble();
  if (Array.isArray(value)) return value.map(plain);
  return String(value);
}

async function run({ sql, parameters, views, limits, tempDirectory }) {
  const instance = await DuckDBInstance.create(':memory:', {
    // The run's own folder, removed by the portal when the run ends.
    temp_directory: tempDirectory,
    threads: String(limits.threads),
    memory_limit: `${limits.memoryMb}MB`,
    max_temp_directory_size: '0B',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    allow_community_extensions: 'false',
    allow_unsigned_extensions: 'false',
  });
  const connection = await instance.connect();
  // The views come first, from paths the portal resolved; then the data files are the only paths
  // allowed, external access goes, and the configuration is locked so the query cannot undo it.
  for (const view of views) {
    // An imported table's CSV, written by the portal, is read with its declared columns; a data file's types are DuckDB's guess.
    const declared = view.columns
      ? `, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', columns = {${view.columns.map((column) => `${quoteString(column.name)}: ${quoteString(column.type)}`).join(', ')}}`
      : '';
    await connection.run(`create view ${quoteIdentifier(view.name)} as select * from ${READERS[view.format]}(${quoteString(view.path)}${declared})`);
  }
  await connection.run(`set allowed_paths = [${views.map((view) => quoteString(view.path)).join(', ')}]`);
  await connection.run('set allowed_directories = []');
  await connection.run('set enable_external_access = false');
  await connection.run('set lock_configuration = true');

  const statements = await connection.extractStatements(sql);
  if (statements.count !== 1) throw new Refusal('analysis.oneStatement', { count: statements.count });
  const prepared = await statements.prepare(0);
  if (prepared.statementType !== StatementType.SELECT) throw new Refusal('analysis.onlySelect');
  const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]));
  const values = {};
  const types = {};
  for (let index = 1; index <= prepared.parameterCount; index += 1) {
    const name = prepared.parameterName(index);
    const parameter = byName.get(name);
    if (!parameter) throw new Refusal('analysis.parameterUndeclared', { name });
    const [year, month, day] = parameter.type === 'date' ? parameter.value.split('-').map(Number) : [];
    values[name] = parameter.type === 'date' ? dateValue({ year, month, day }) : parameter.value;
    types[name] = BOUND_TYPES[parameter.type];
  }
  if (prepared.parameterCount) prepared.bind(values, types);
  // The time limit counts from here: the process's start and the views are the portal's time, not the query's.
  process.send({ ready: true });
  const result = await prepared.stream();
  const columns = result.columnNames().map((name, index) => ({ name, type: result.columnTypes()[index].toString() }));
  const rows = [];
  let bytes = 2;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    // Row by row: a chunk is 2,048 rows, and a chunk of wide values made JavaScript at once could pass the heap before the byte limit is checked.
    const vectors = Array.from({ length: chunk.columnCount }, (_, index) => chunk.getColumnVector(index));
    for (let at = 0; at < chunk.rowCount; at += 1) {
      const converted = vectors.map((vector) => plain(vector.getItem(at)));
      bytes += JSON.stringify(converted).length + 1;
      if (rows.length >= limits.maxRows) throw new Refusal('analysis.tooManyRows', { max: limits.maxRows });
      if (bytes > limits.maxBytes) throw new Refusal('analysis.tooManyBytes', { max: `${Math.round((limits.maxBytes / 1024 ** 2) * 100) / 100} MB` });
      rows.push(converted);
    }
  }
  return { columns, rows };
}

process.once('message', (job) => {
  // A startup that hangs (a file that does not answer) is the parent's SANDBOX_STARTUP_MS (sandbox.ts).
  run(job)
    .then(
      (result) => process.send(result),
      (error) =>
        process.send({
          error:
            error instanceof Refusal
              ? { key: error.key, params: error.params }
              : { key: 'analysis.queryFailed', params: { detail: String(error?.message ?? error).slice(0, 2000) } },
        }),
    )
    .finally(() => process.disconnect());
});
