import type { Tx } from '../../db/index.js';

type Handler = (payload: { trx: Tx; ids: readonly string[] }) => Promise<void>;

/**
 * What the files module tells other modules about data files, as the record events do: listeners
 * registered in app.ts, the files module the only one that emits. `dataFilesDeleting` runs in the
 * deleting transaction, before the rows go, so what is derived from the files (the tables made of
 * them) goes or stays with them. (A record's deletion has the record's own events.)
 */
export class FileEvents {
  private readonly deleting: Handler[] = [];

  onDataFilesDeleting(handler: Handler): void {
    this.deleting.push(handler);
  }

  async dataFilesDeleting(trx: Tx, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    for (const handler of this.deleting) await handler({ trx, ids });
  }
}
