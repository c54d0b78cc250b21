/** Python's `str` methods where they differ from JavaScript's. */

/**
 * The characters `str.isspace()` accepts (and so `str.strip()`, `str.split()`, `int()` and `float()` skip):
 * JavaScript's `\s` plus U+001C..U+001F and U+0085, minus U+FEFF.
 */
export const PY_WHITESPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const space = new RegExp(`^[${PY_WHITESPACE}]$`);

/**
 * `s` without the characters `isSpace` accepts at either end. A scan from both ends: the regular
 * expression `^\s+|\s+$` is quadratic in V8 on a long run of spaces inside the text (each start
 * retries the run), and these strings come from requests.
 */
export function stripWhere(s: string, isSpace: (c: string) => boolean): string {
  let start = 0;
  let end = s.length;
  while (start < end && isSpace(s.charAt(start))) start++;
  while (end > start && isSpace(s.charAt(end - 1))) end--;
  return s.slice(start, end);
}

/** `str.strip()` without arguments. */
export function pyStrip(s: string): string {
  return stripWhere(s, (c) => space.test(c));
}
