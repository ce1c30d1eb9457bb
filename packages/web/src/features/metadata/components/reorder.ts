/**
 * Moving one row of an ordered list (authors, references) one place up or down: the whole list is
 * numbered 0..n-1 in its new order, so that equal or gapped `sort` values cannot make rows jump.
 * Returns the rows whose `sort` changes, the only ones to write.
 */
export function renumberAfterMove<T extends { id: string; sort: number }>(rows: readonly T[], index: number, step: -1 | 1): { id: string; sort: number }[] {
  const target = index + step;
  if (index < 0 || index >= rows.length || target < 0 || target >= rows.length) return [];
  const order = [...rows];
  const [moved] = order.splice(index, 1);
  order.splice(target, 0, moved!);
  return order.flatMap((row, position) => (Number(row.sort) === position ? [] : [{ id: row.id, sort: position }]));
}
