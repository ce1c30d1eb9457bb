import type { Tx } from '../../db/index.js';

/**
 * What the metadata module tells other modules about records, as Immich's event repository does:
 * one typed map of events, listeners registered by name in app.ts, and the module that writes the
 * record the only one that emits. A listener that writes (the search index, the OAI-PMH feed, the
 * DOI's publication facts) runs in the writing transaction, so what it derives commits or rolls back
 * with the change.
 */
export interface RecordEventMap {
  /** These records changed (their fields, status or anything attached); in the writing transaction. */
  changed: { trx: Tx; ids: readonly string[] };
  /** These records are about to be deleted; in the deleting transaction, before their rows go. */
  deleting: { trx: Tx; ids: readonly string[] };
  /** This record is about to be deleted, before its transaction: what lives outside the database (stored blobs) goes. */
  removing: { id: string };
}

export type RecordEvent = keyof RecordEventMap;
type Handler<E extends RecordEvent> = (payload: RecordEventMap[E]) => Promise<void>;

/** Something kept in step with records, inside the transaction that changed them. */
export interface RecordChangeListener {
  sync(trx: Tx, ids: readonly string[]): Promise<void>;
  /** Drops what it holds of these records, before they are deleted (in the deleting transaction). */
  forget(trx: Tx, ids: readonly string[]): Promise<void>;
}

export class RecordEvents {
  private readonly handlers: { [E in RecordEvent]: Handler<E>[] } = { changed: [], deleting: [], removing: [] };

  on<E extends RecordEvent>(event: E, handler: Handler<E>): void {
    this.handlers[event].push(handler);
  }

  /** Calls the event's listeners one after the other, in the order they were registered. */
  async emit<E extends RecordEvent>(event: E, payload: RecordEventMap[E]): Promise<void> {
    for (const handler of this.handlers[event]) await handler(payload);
  }
}
