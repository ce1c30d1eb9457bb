/**
 * Query strings as the web client sends them (spec section 7): arrays as `name[]=a&name[]=b`
 * (also plain repeats) become `{name: ['a', 'b']}`.
 */
export function parseQuery(query: string): Record<string, string | string[]> {
  // Without a prototype, names such as __proto__ or toString are parameters like any other.
  const result: Record<string, string | string[]> = Object.create(null);
  for (const [rawKey, value] of new URLSearchParams(query)) {
    const isArray = rawKey.endsWith('[]');
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    const existing = result[key];
    if (existing === undefined) result[key] = isArray ? [value] : value;
    else result[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return result;
}
