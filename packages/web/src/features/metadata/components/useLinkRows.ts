import { resource } from '../api';
import { renumberAfterMove } from './reorder';
import type { useFeedback } from './useFeedback';

/**
 * Moving and removing the rows of a record's link list (authors, citations): a move renumbers the
 * whole list and writes the rows whose place changed; a removal confirms with the spec's text.
 */
export function useLinkRows<T extends { id: string; sort: number }>(
  name: string,
  rows: readonly T[],
  refresh: () => Promise<unknown>,
  { run, message, t }: Pick<ReturnType<typeof useFeedback>, 'run' | 'message' | 't'>,
) {
  const move = async (index: number, step: -1 | 1) => {
    const changes = renumberAfterMove(rows, index, step);
    if (!changes.length) return;
    await run(async () => {
      for (const change of changes) await resource.update(name, change.id, { sort: change.sort });
      return true;
    });
    await refresh();
  };

  const remove = async (id: string) => {
    if (await run(async () => (await resource.remove(name, id), true))) {
      message.success(t('metadata.deleted'));
      await refresh();
    }
  };

  return { move, remove };
}
