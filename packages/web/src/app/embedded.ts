import { pageLanguage } from './i18n';

/**
 * Data the server wrote into the page for its first render (`<script type="application/json">`,
 * plugins/web.ts withData): replies of the API as it would give them, for this page's language. Each
 * part is handed out once, so that every later read asks the API.
 */
const parsed = new Map<string, Record<string, unknown> | null>();
const taken = new Set<string>();

export function takeEmbedded<T>(id: string, part: string, fits: (data: Record<string, unknown>) => boolean = () => true): T | undefined {
  const key = `${id}\u0000${part}`;
  if (taken.has(key)) return undefined;
  taken.add(key);
  if (!parsed.has(id)) {
    const text = document.getElementById(id)?.textContent;
    let data: Record<string, unknown> | null = null;
    try {
      data = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      data = null;
    }
    parsed.set(id, data);
  }
  const data = parsed.get(id);
  return data && data.language === pageLanguage && fits(data) ? (data[part] as T | undefined) : undefined;
}
