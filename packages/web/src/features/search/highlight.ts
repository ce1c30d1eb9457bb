/** A text cut into pieces, the matched ones marked, from `[start, end)` ranges of the search reply. */
export function highlightParts(text: string, ranges: [number, number][]): { text: string; marked: boolean }[] {
  const parts: { text: string; marked: boolean }[] = [];
  let at = 0;
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  for (const [rawStart, rawEnd] of sorted) {
    // Ranges out of the text, empty or overlapping the last one are taken as far as they are sound.
    const start = Math.max(at, Math.min(rawStart, text.length));
    const end = Math.min(Math.max(rawEnd, start), text.length);
    if (end <= start) continue;
    if (start > at) parts.push({ text: text.slice(at, start), marked: false });
    parts.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), marked: false });
  return parts;
}
