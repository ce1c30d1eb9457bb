/**
 * Characters no XML document may carry (XML 1.0, section 2.2: Char): C0 controls other than tab,
 * line feed and carriage return, lone UTF-16 surrogates, and U+FFFE / U+FFFF. Text holding them is
 * refused on input (the server's text guard and the forms' schemas), and every XML writer strips
 * them from what was stored before the rule existed. NUL is among them, which PostgreSQL refuses in
 * text anyway.
 */
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const XML_ILLEGAL_ALL = new RegExp(XML_ILLEGAL.source, 'g');

/** True when `text` holds a character that XML, and therefore our exports, cannot carry. */
export function hasIllegalText(text: string): boolean {
  return XML_ILLEGAL.test(text);
}

/** `text` without the characters XML cannot carry (for writing stored text into XML). */
export function stripIllegalText(text: string): string {
  return XML_ILLEGAL.test(text) ? text.replace(XML_ILLEGAL_ALL, '') : text;
}

/**
 * The path of the first string in `value` (an object, array or string, as parsed from JSON or a
 * form) that holds an illegal character: `[]` for `value` itself, `['title']`, `['authors', '2', 'name']`;
 * null when every string is clean. Object keys count as text too.
 */
export function illegalTextPath(value: unknown, depth = 0): string[] | null {
  if (typeof value === 'string') return hasIllegalText(value) ? [] : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inner = illegalTextPath(value[i], depth + 1);
      if (inner) return [String(i), ...inner];
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (hasIllegalText(key)) return [key];
    const found = illegalTextPath(inner, depth + 1);
    if (found) return [key, ...found];
  }
  return null;
}
